// Kernel launch: the handle API (functions by symbol, kernel "binaries", packed argument blobs and
// argument lists) and the entry of the templated launch forms (ACLRT_LAUNCH_KERNEL, <<<>>>), over
// the kernel runtime's launcher and registry (canopy/kernel_runtime/).
//
// On a CPU a kernel binary is a shared library of kernels: aclrtBinaryLoadFromFile dlopens it, and
// the kernels it defines are found by name among the registrations its static objects made when it
// was loaded (the kernel compiler registers every __global__ kernel a source defines; code compiled
// otherwise writes CANOPY_REGISTER_KERNEL).
// A registration records the kernel's parameter types, so that a packed argument blob, laid out as
// CANN's generated launch wrapper lays out its argument struct, can be unpacked into a real call.
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "api.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/memory.h"
#include "canopy/kernel_runtime/launcher.h"
#include "canopy/kernel_runtime/registry.h"

namespace canopy::api {

struct KernelBinary {
    KernelBinary(std::string path, void* library, const void* module)
        : path(std::move(path)), library(library), module(module) {}
    // Unloads the library once nothing uses it: the last function handle, argument list or launch.
    ~KernelBinary() { dlclose(library); }

    const std::string path;
    void* const library;   // dlopen handle
    const void* const module;  // its link_map, which identifies its kernels in the registry
    std::mutex functions_mutex;
    std::unordered_map<std::string, void*> functions;  // kernel name -> the handle made for it
};

struct KernelFunction {
    std::shared_ptr<kernel::RegisteredKernel> kernel;
    std::shared_ptr<KernelBinary> binary;  // null for a function found by symbol
};

// An argument list (aclrtKernelArgsInit / Append / Finalize). Appended parameters are laid out as
// CANN lays them out for an AI Core kernel: each at the next 8-byte aligned offset.
struct KernelArgs {
    static constexpr std::size_t max_appends = 128;  // CANN's limit on appended parameters
    static constexpr std::size_t append_alignment = 8;
    // The most bytes a list lays out: no finalizable list comes near it (Finalize takes at most the
    // kernel's packed size), and it keeps a huge paramSize from allocating and filling host memory.
    static constexpr std::size_t min_bytes_limit = std::size_t{1} << 20;

    struct Chunk {
        std::size_t offset;
        std::size_t size;
        // A placeholder (aclrtKernelArgsAppendPlaceHolder) is a pointer parameter whose data the
        // caller writes into a host buffer of the list; each launch copies that data and passes
        // the copy's address, as CANN copies it to device memory with the arguments.
        bool placeholder = false;
        std::vector<std::byte> buffer;
    };
    // Where each placeholder's pointer goes in the packed blob (from Finalize): chunk index, offset.
    struct Slot {
        std::size_t chunk;
        std::size_t packed_offset;
    };

    std::shared_ptr<KernelFunction> function;
    std::mutex mutex;
    std::vector<std::byte> bytes;
    std::vector<Chunk> chunks;  // reserved up front: an aclrtParamHandle is the address of its chunk
    bool finalized = false;
    std::vector<std::byte> packed;  // from Finalize: the kernel's packed argument blob
    std::vector<Slot> placeholder_slots;
};

namespace {

const std::string& kernel_name(const KernelFunction& function) { return function.kernel->name; }

std::shared_ptr<KernelFunction> function_handle(State& state, aclrtFuncHandle handle, const char* argument) {
    if (!handle) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
    std::shared_ptr<KernelFunction> function = state.functions.share(handle);
    if (!function) fail(ACL_ERROR_RT_INVALID_HANDLE, std::string(argument) + " " + describe(handle) + " is not a live function handle");
    if (!function->kernel->alive.load(std::memory_order_acquire)) {
        fail(ACL_ERROR_RT_INVALID_HANDLE, std::string(argument) + " " + describe(handle) + ": kernel " +
                                              kernel_name(*function) + " was unloaded with the module that defined it");
    }
    return function;
}

std::shared_ptr<KernelBinary> binary_handle(State& state, aclrtBinHandle handle, const char* argument) {
    if (!handle) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
    std::shared_ptr<KernelBinary> binary = state.binaries.share(handle);
    if (!binary) fail(ACL_ERROR_RT_INVALID_HANDLE, std::string(argument) + " " + describe(handle) + " is not a loaded binary");
    return binary;
}

std::shared_ptr<KernelArgs> args_handle(State& state, aclrtArgsHandle handle, const char* argument) {
    if (!handle) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
    std::shared_ptr<KernelArgs> args = state.kernel_args.share(handle);
    if (!args) {
        fail(ACL_ERROR_RT_INVALID_HANDLE, std::string(argument) + " " + describe(handle) +
                                              " is not a live argument list (each thread has one at a time: "
                                              "aclrtKernelArgsInit replaces the thread's previous one, as in CANN)");
    }
    return args;
}

std::string sizes_text(const std::vector<KernelArgs::Chunk>& chunks) {
    std::string text;
    for (const auto& chunk : chunks) text += (text.empty() ? "" : ", ") + std::to_string(chunk.size);
    return text;
}

// Launches a registered kernel with a packed argument blob. `device_args`, when set, is device
// memory read when the launch runs (stream order lets an earlier aclrtMemcpyAsync fill it);
// otherwise `host_args` holds a copy taken at the call.
void launch_packed(State& state, const std::shared_ptr<KernelFunction>& function, std::uint32_t num_blocks,
                   std::uint32_t dyn_ubuf_bytes, aclrtStream stream, const std::byte* device_args,
                   std::vector<std::byte> host_args) {
    const std::shared_ptr<kernel::RegisteredKernel>& registered = function->kernel;
    engine::Stream& target = target_stream(state, stream, "stream");
    if (registered->cooperative) kernel::check_cooperative_block_count(registered->name, num_blocks);
    const kernel::LaunchPlan plan{registered->name.c_str(), num_blocks, dyn_ubuf_bytes, registered->cooperative,
                                  registered->cores, registered->symbol, registered->npu_arch};
    // The call holds the kernel's record (its name is the operation's) and its library.
    if (device_args) {
        kernel::enqueue_launch(target, plan, kernel::KernelCall([registered, binary = function->binary, device_args] {
                                   registered->registration->invoke_packed(device_args);
                               }));
    } else {
        kernel::enqueue_launch(target, plan,
                               kernel::KernelCall([registered, binary = function->binary, blob = std::move(host_args)] {
                                   registered->registration->invoke_packed(blob.data());
                               }));
    }
}

void check_load_options(const aclrtBinaryLoadOptions* options) {
    if (!options) return;
    if (options->numOpt > 0 && !options->options) fail(ACL_ERROR_INVALID_PARAM, "options->options is NULL with numOpt " + std::to_string(options->numOpt));
    for (std::size_t i = 0; i < options->numOpt; ++i) {
        const aclrtBinaryLoadOption& option = options->options[i];
        switch (raw_value(option.type)) {
            case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
                // Symbols are resolved at load (RTLD_NOW) either way; lazy loading changes nothing visible.
                break;
            case ACL_RT_BINARY_LOAD_OPT_MAGIC:
                if (option.value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE &&
                    option.value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
                    option.value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE) {
                    fail(ACL_ERROR_INVALID_PARAM, "options->options[" + std::to_string(i) + "]: magic " +
                                                      std::to_string(option.value.magic) + " is not an ACL_RT_BINARY_MAGIC_ELF_* value");
                }
                break;  // the CPU runs every core type's kernels alike
            case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
                break;  // every Canopy kernel is CPU code
            default:
                fail(ACL_ERROR_INVALID_PARAM, "options->options[" + std::to_string(i) + "]: unknown option type " +
                                                  std::to_string(raw_value(option.type)));
        }
    }
}

// The dynamic UB size from a launch configuration. Other attributes steer the NPU's scheduler,
// dumps, profiling or timeouts and have no effect on a CPU.
std::uint32_t dyn_ubuf_size(const aclrtLaunchKernelCfg* cfg) {
    std::uint32_t bytes = 0;
    if (!cfg) return bytes;
    if (cfg->numAttrs > 0 && !cfg->attrs) fail(ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL with numAttrs " + std::to_string(cfg->numAttrs));
    bool timeout_s = false, timeout_us = false;
    for (std::size_t i = 0; i < cfg->numAttrs; ++i) {
        const aclrtLaunchKernelAttr& attr = cfg->attrs[i];
        switch (raw_value(attr.id)) {
            case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE: bytes = attr.value.dynUBufSize; break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
                if (attr.value.blockDimOffset != 0) {
                    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "cfg->attrs[" + std::to_string(i) + "]: ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET " +
                                                               std::to_string(attr.value.blockDimOffset) + " is not supported (only 0)");
                }
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT: timeout_s = true; break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US: timeout_us = true; break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
            case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
            case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
            case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING: break;
            default:
                fail(ACL_ERROR_INVALID_PARAM, "cfg->attrs[" + std::to_string(i) + "]: unknown attribute id " +
                                                  std::to_string(raw_value(attr.id)));
        }
    }
    if (timeout_s && timeout_us) {
        fail(ACL_ERROR_INVALID_PARAM, "cfg: ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US are exclusive");
    }
    return bytes;
}

// Each thread has one argument list at a time, as in CANN (whose aclrtKernelArgsInit reuses one
// thread-local list): a new one invalidates the thread's previous handle. This bounds the memory of
// the common pattern Init/Append/Finalize/Launch per launch.
thread_local void* thread_args_handle = nullptr;
thread_local std::weak_ptr<KernelArgs> thread_args;

// Where the next parameter of `size` bytes goes (the next 8-byte aligned offset), checked so that
// neither the rounding nor offset + size wraps and the list stays within its limit.
std::size_t next_offset(const KernelArgs& args, std::size_t size, const char* argument, aclrtArgsHandle handle) {
    const std::size_t limit = std::max(KernelArgs::min_bytes_limit, args.function->kernel->packed_size());
    std::size_t offset, end;
    if (!engine::detail::checked_align_up(args.bytes.size(), KernelArgs::append_alignment, offset) ||
        !engine::detail::checked_add(offset, size, end) || end > limit) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + std::to_string(size) + " at offset " +
                                          std::to_string(args.bytes.size()) + " of argsHandle " + describe(handle) +
                                          " exceeds the " + std::to_string(limit) + " bytes a list of kernel " +
                                          args.function->kernel->name + " holds");
    }
    return offset;
}

// Turns the appended chunks into the kernel's packed blob. Either every parameter was appended on
// its own (chunk i is parameter i), or the chunks, at their 8-byte aligned offsets, already form
// the packed blob (one struct holding all arguments, or several parameters per chunk).
std::vector<std::byte> pack_appended(KernelArgs& args) {
    const kernel::RegisteredKernel& registered = *args.function->kernel;
    const std::size_t arity = registered.arity();
    bool one_per_parameter = args.chunks.size() == arity;
    for (std::size_t i = 0; one_per_parameter && i < arity; ++i)
        one_per_parameter = args.chunks[i].size == registered.parameter(i).size;
    std::vector<std::byte> packed(registered.packed_size());
    args.placeholder_slots.clear();
    if (one_per_parameter) {
        for (std::size_t i = 0; i < arity; ++i) {
            std::memcpy(packed.data() + registered.parameter(i).offset, args.bytes.data() + args.chunks[i].offset,
                        args.chunks[i].size);
            if (args.chunks[i].placeholder) args.placeholder_slots.push_back({i, registered.parameter(i).offset});
        }
        return packed;
    }
    for (std::size_t i = 0; i < args.chunks.size(); ++i)
        if (args.chunks[i].placeholder) args.placeholder_slots.push_back({i, args.chunks[i].offset});
    const std::size_t appended = args.bytes.size();
    if (appended != registered.packed_end() && appended != registered.packed_size()) {
        fail(ACL_ERROR_INVALID_PARAM,
             "the appended parameters (" + std::to_string(args.chunks.size()) + " of " + sizes_text(args.chunks) +
                 " bytes, " + std::to_string(appended) + " bytes laid out) do not match kernel " + registered.signature() +
                 ": append each parameter on its own, or all of them as one packed block of " +
                 std::to_string(registered.packed_end()) + " bytes");
    }
    if (appended > 0) std::memcpy(packed.data(), args.bytes.data(), appended);
    return packed;
}

// The packed blob followed by a copy of each placeholder's data, its pointer parameter set to its
// copy. The launch owns the vector, so the copies live as long as the launch.
std::vector<std::byte> with_placeholder_data(const KernelArgs& args) {
    constexpr std::size_t data_alignment = 32;
    std::vector<std::size_t> data_offsets;
    std::size_t size = args.packed.size();
    for (const KernelArgs::Slot& slot : args.placeholder_slots) {
        if (!engine::detail::checked_align_up(size, data_alignment, size)) fail(ACL_ERROR_INVALID_PARAM, "the placeholder data overflow size_t");
        data_offsets.push_back(size);
        if (!engine::detail::checked_add(size, args.chunks[slot.chunk].buffer.size(), size))
            fail(ACL_ERROR_INVALID_PARAM, "the placeholder data overflow size_t");
    }
    // Over-allocated so that the data can start 32-byte aligned whatever the vector's address.
    if (!engine::detail::checked_add(size, data_alignment, size)) fail(ACL_ERROR_INVALID_PARAM, "the placeholder data overflow size_t");
    std::vector<std::byte> blob(size);
    if (!args.packed.empty()) std::memcpy(blob.data(), args.packed.data(), args.packed.size());
    const std::size_t base_shift =
        (data_alignment - reinterpret_cast<std::uintptr_t>(blob.data()) % data_alignment) % data_alignment;
    for (std::size_t i = 0; i < args.placeholder_slots.size(); ++i) {
        const KernelArgs::Slot& slot = args.placeholder_slots[i];
        const std::vector<std::byte>& data = args.chunks[slot.chunk].buffer;
        std::byte* copy = blob.data() + data_offsets[i] + base_shift;
        if (!data.empty()) std::memcpy(copy, data.data(), data.size());
        std::memcpy(blob.data() + slot.packed_offset, &copy, sizeof copy);
    }
    return blob;
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

// The launch of ACLRT_LAUNCH_KERNEL and of <<<>>> (declared in canopy/kernel/launch.h): the stream
// handle and the error text are the C API's; the rest is the kernel runtime's (launcher.h).
std::uint32_t canopy::kernel::launch(const LaunchRequest& request, KernelCall&& kernel_call) noexcept {
    return static_cast<std::uint32_t>(call(request.api, [&] {
        State& s = state();
        check_block_count(request.kernel, request.num_blocks);
        enqueue_request(target_stream(s, request.stream, "stream"), request, std::move(kernel_call));
    }));
}

extern "C" {

aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle) {
    return call("aclrtGetFuncBySymbol", [&] {
        require(symbol, "symbol");
        require(funcHandle, "funcHandle");
        State& s = state();
        std::shared_ptr<kernel::RegisteredKernel> registered = kernel::KernelRegistry::instance().find_symbol(symbol);
        if (!registered) {
            Dl_info info{};
            const bool named = dladdr(symbol, &info) != 0 && info.dli_sname && info.dli_saddr == symbol;
            fail(ACL_ERROR_RT_INVALID_SYMBOL,
                 "symbol " + describe(symbol) + (named ? std::string(" (") + info.dli_sname + ")" : std::string()) +
                     " is not a registered kernel: compile its source with canopy_add_kernels, or write "
                     "CANOPY_REGISTER_KERNEL(name); after its definition");
        }
        // The same symbol yields the same handle, as long as that handle lives.
        if (void* cached = registered->symbol_handle.load(std::memory_order_acquire)) {
            const KernelFunction* function = s.functions.reach(cached);
            if (function && function->kernel == registered && !function->binary) {
                *funcHandle = cached;
                return;
            }
        }
        void* handle = s.functions.add(std::make_shared<KernelFunction>(KernelFunction{registered, nullptr}));
        registered->symbol_handle.store(handle, std::memory_order_release);
        *funcHandle = handle;
    });
}

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
    return call("aclrtBinaryLoadFromFile", [&] {
        require(binPath, "binPath");
        require(binHandle, "binHandle");
        State& s = state();
        check_load_options(options);
        // A path without a slash would make dlopen search the library path; binPath names a file.
        std::string path = binPath;
        if (path.find('/') == std::string::npos) path = "./" + path;
        dlerror();
        void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char* reason = dlerror();
            fail(ACL_ERROR_INVALID_FILE, std::string("binPath \"") + binPath +
                                             "\" cannot be loaded as a kernel library (a shared library built with "
                                             "canopy_add_kernels): " + (reason ? reason : "unknown reason"));
        }
        struct link_map* module = nullptr;
        if (dlinfo(library, RTLD_DI_LINKMAP, &module) != 0 || !module) {
            dlclose(library);
            fail(ACL_ERROR_INVALID_FILE, std::string("binPath \"") + binPath + "\": cannot identify the loaded library");
        }
        *binHandle = s.binaries.add(std::make_shared<KernelBinary>(binPath, library, module));
    });
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
    return call("aclrtBinaryUnLoad", [&] {
        State& s = state();
        binary_handle(s, binHandle, "binHandle");
        std::shared_ptr<KernelBinary> binary = s.binaries.remove(binHandle);
        if (!binary) fail(ACL_ERROR_RT_INVALID_HANDLE, "binHandle " + describe(binHandle) + " is not a loaded binary");
        // Its functions and argument lists die with it; launches still queued keep the library
        // loaded until they have run.
        s.kernel_args.remove_if([&](const KernelArgs& args) { return args.function->binary == binary; });
        s.functions.remove_if([&](const KernelFunction& function) { return function.binary == binary; });
    });
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName, aclrtFuncHandle* funcHandle) {
    return call("aclrtBinaryGetFunction", [&] {
        require(kernelName, "kernelName");
        require(funcHandle, "funcHandle");
        State& s = state();
        std::shared_ptr<KernelBinary> binary = binary_handle(s, binHandle, "binHandle");
        std::lock_guard lock(binary->functions_mutex);
        if (auto cached = binary->functions.find(kernelName); cached != binary->functions.end()) {
            if (s.functions.reach(cached->second)) {
                *funcHandle = cached->second;
                return;
            }
        }
        const kernel::KernelRegistry::Lookup lookup =
            kernel::KernelRegistry::instance().find_in_module(binary->module, kernelName);
        if (lookup.matches > 1) {
            fail(ACL_ERROR_RT_KERNEL_DUPLICATE, "binary \"" + binary->path + "\" registers " + std::to_string(lookup.matches) +
                                                    " different kernels named \"" + kernelName + "\"");
        }
        if (!lookup.kernel) {
            std::string known;
            for (const std::string& name : lookup.available) known += (known.empty() ? "" : ", ") + name;
            fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                 std::string("kernelName \"") + kernelName + "\" is not a kernel of binary \"" + binary->path + "\" (" +
                     (known.empty() ? std::string("it registers no kernels: build it with canopy_add_kernels or "
                                                  "CANOPY_REGISTER_KERNEL")
                                    : "its kernels: " + known) +
                     ")");
        }
        void* handle = s.functions.add(std::make_shared<KernelFunction>(KernelFunction{lookup.kernel, binary}));
        binary->functions[kernelName] = handle;
        *funcHandle = handle;
    });
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                           aclrtStream stream) {
    return call("aclrtLaunchKernel", [&] {
        // The acl layer's null checks come first, as in CANN; handles are checked by the runtime.
        require(funcHandle, "funcHandle");
        require(argsData, "argsData");
        State& s = state();
        std::shared_ptr<KernelFunction> function = function_handle(s, funcHandle, "funcHandle");
        const kernel::RegisteredKernel& registered = *function->kernel;
        kernel::check_block_count(registered.name, numBlocks);
        if (argsSize != registered.packed_end() && argsSize != registered.packed_size()) {
            fail(ACL_ERROR_RT_PARAM_INVALID,
                 "argsSize " + std::to_string(argsSize) + " does not match kernel " + registered.signature() +
                     ", whose packed arguments take " + std::to_string(registered.packed_end()) +
                     (registered.packed_size() != registered.packed_end()
                          ? " (or " + std::to_string(registered.packed_size()) + " with the struct's tail padding)"
                          : std::string()) +
                     " bytes");
        }
        const std::optional<engine::Allocation> allocation = allocation_of(s, argsData, "argsData");
        if (allocation) {
            // Checked without wrapping: argsData in the allocation's padding is past its end.
            const std::size_t offset = reinterpret_cast<std::uintptr_t>(argsData) - allocation->base;
            if (!engine::detail::fits(offset, argsSize, allocation->size)) {
                fail(ACL_ERROR_RT_PARAM_INVALID, "argsData " + describe(argsData) + ": " + std::to_string(argsSize) +
                                                     " bytes at offset " + std::to_string(offset) +
                                                     " run past the end of its " +
                                                     (allocation->kind == engine::MemoryKind::device ? "device" : "host") +
                                                     " allocation of " + std::to_string(allocation->size) + " bytes");
            }
        }
        if (allocation && allocation->kind == engine::MemoryKind::device) {
            launch_packed(s, function, numBlocks, 0, stream, static_cast<const std::byte*>(argsData), {});
        } else {
            const auto* bytes = static_cast<const std::byte*>(argsData);
            std::vector<std::byte> copy(registered.packed_size());
            if (argsSize > 0) std::memcpy(copy.data(), bytes, argsSize);
            launch_packed(s, function, numBlocks, 0, stream, nullptr, std::move(copy));
        }
    });
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
    return call("aclrtKernelArgsInit", [&] {
        require(argsHandle, "argsHandle");
        State& s = state();
        std::shared_ptr<KernelFunction> function = function_handle(s, funcHandle, "funcHandle");
        auto args = std::make_shared<KernelArgs>();
        args->function = std::move(function);
        args->chunks.reserve(KernelArgs::max_appends);
        if (std::shared_ptr<KernelArgs> previous = thread_args.lock();
            previous && s.kernel_args.reach(thread_args_handle) == previous.get()) {
            s.kernel_args.remove(thread_args_handle);
        }
        void* handle = s.kernel_args.add(args);
        thread_args_handle = handle;
        thread_args = args;
        *argsHandle = handle;
    });
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize, aclrtParamHandle* paramHandle) {
    return call("aclrtKernelArgsAppend", [&] {
        require(argsHandle, "argsHandle");
        require(param, "param");
        if (paramSize == 0) fail(ACL_ERROR_INVALID_PARAM, "paramSize is 0");
        require(paramHandle, "paramHandle");
        State& s = state();
        std::shared_ptr<KernelArgs> args = args_handle(s, argsHandle, "argsHandle");
        std::lock_guard lock(args->mutex);
        if (args->finalized) {
            fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "argsHandle " + describe(argsHandle) +
                                                       " is finalized: parameters cannot be appended after aclrtKernelArgsFinalize");
        }
        if (args->chunks.size() >= KernelArgs::max_appends) {
            fail(ACL_ERROR_RT_PARAM_INVALID, "argsHandle " + describe(argsHandle) + " already holds " +
                                                 std::to_string(KernelArgs::max_appends) + " parameters, the most a list takes");
        }
        const std::size_t offset = next_offset(*args, paramSize, "paramSize", argsHandle);
        args->bytes.resize(offset + paramSize);
        std::memcpy(args->bytes.data() + offset, param, paramSize);
        args->chunks.push_back(KernelArgs::Chunk{offset, paramSize, false, {}});
        *paramHandle = &args->chunks.back();
    });
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle) {
    return call("aclrtKernelArgsAppendPlaceHolder", [&] {
        require(argsHandle, "argsHandle");
        require(paramHandle, "paramHandle");
        State& s = state();
        std::shared_ptr<KernelArgs> args = args_handle(s, argsHandle, "argsHandle");
        std::lock_guard lock(args->mutex);
        if (args->finalized) {
            fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "argsHandle " + describe(argsHandle) +
                                                       " is finalized: parameters cannot be appended after aclrtKernelArgsFinalize");
        }
        if (args->chunks.size() >= KernelArgs::max_appends) {
            fail(ACL_ERROR_RT_PARAM_INVALID, "argsHandle " + describe(argsHandle) + " already holds " +
                                                 std::to_string(KernelArgs::max_appends) + " parameters, the most a list takes");
        }
        const std::size_t offset = next_offset(*args, sizeof(void*), "the placeholder's pointer", argsHandle);
        args->bytes.resize(offset + sizeof(void*));  // the pointer, set at each launch
        args->chunks.push_back(KernelArgs::Chunk{offset, sizeof(void*), true, {}});
        *paramHandle = &args->chunks.back();
    });
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
    return call("aclrtKernelArgsGetPlaceHolderBuffer", [&] {
        require(argsHandle, "argsHandle");
        require(paramHandle, "paramHandle");
        require(bufferAddr, "bufferAddr");
        if (dataSize == 0) fail(ACL_ERROR_INVALID_PARAM, "dataSize is 0");
        State& s = state();
        // The data goes to device memory with the arguments on the NPU, so it cannot exceed it.
        if (dataSize > s.runtime.config().device_memory_bytes) {
            fail(ACL_ERROR_INVALID_PARAM, "dataSize " + std::to_string(dataSize) + " exceeds the device memory (" +
                                              std::to_string(s.runtime.config().device_memory_bytes) + " bytes)");
        }
        std::shared_ptr<KernelArgs> args = args_handle(s, argsHandle, "argsHandle");
        std::lock_guard lock(args->mutex);
        KernelArgs::Chunk* chunk = nullptr;
        for (KernelArgs::Chunk& candidate : args->chunks)
            if (&candidate == paramHandle) chunk = &candidate;
        if (!chunk) {
            fail(ACL_ERROR_INVALID_PARAM, "paramHandle " + describe(paramHandle) + " is not a parameter of argsHandle " +
                                              describe(argsHandle));
        }
        if (!chunk->placeholder) {
            fail(ACL_ERROR_INVALID_PARAM, "paramHandle " + describe(paramHandle) +
                                              " was appended with aclrtKernelArgsAppend, not as a placeholder");
        }
        chunk->buffer.assign(dataSize, std::byte{0});
        *bufferAddr = chunk->buffer.data();
    });
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
    return call("aclrtKernelArgsFinalize", [&] {
        State& s = state();
        std::shared_ptr<KernelArgs> args = args_handle(s, argsHandle, "argsHandle");
        std::lock_guard lock(args->mutex);
        args->packed = pack_appended(*args);
        args->finalized = true;
    });
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve) {
    return call("aclrtLaunchKernelWithConfig", [&] {
        // The acl layer's checks come first, as in CANN: NULL handles, numBlocks 0, reserve.
        require(funcHandle, "funcHandle");
        if (numBlocks == 0) fail(ACL_ERROR_INVALID_PARAM, "numBlocks 0 is outside [1, " + std::to_string(kernel::max_blocks) + "]");
        require(argsHandle, "argsHandle");
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        std::shared_ptr<KernelFunction> function = function_handle(s, funcHandle, "funcHandle");
        kernel::check_block_count(kernel_name(*function), numBlocks);
        std::shared_ptr<KernelArgs> args = args_handle(s, argsHandle, "argsHandle");
        const std::uint32_t dyn_ubuf_bytes = dyn_ubuf_size(cfg);
        std::vector<std::byte> blob;
        {
            std::lock_guard lock(args->mutex);
            if (args->function != function) {
                fail(ACL_ERROR_INVALID_PARAM, "argsHandle " + describe(argsHandle) + " was initialized for kernel " +
                                                  kernel_name(*args->function) + ", not for funcHandle " +
                                                  describe(funcHandle) + " (kernel " + kernel_name(*function) + ")");
            }
            if (!args->finalized) {
                fail(ACL_ERROR_INVALID_PARAM, "argsHandle " + describe(argsHandle) + " is not finalized: call aclrtKernelArgsFinalize first");
            }
            blob = with_placeholder_data(*args);  // host arguments: copied at the call
        }
        launch_packed(s, function, numBlocks, dyn_ubuf_bytes, stream, nullptr, std::move(blob));
    });
}

}  // extern "C"
