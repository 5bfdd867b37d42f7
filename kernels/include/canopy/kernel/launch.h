#pragma once
// Launching Ascend C kernels on the CPU. Three forms reach the same launcher:
//
//   ACLRT_LAUNCH_KERNEL(add_custom)(numBlocks, stream, x, y, z);   // CANN's generated-wrapper form
//   add_custom<<<numBlocks, dynUBufSize, stream>>>(x, y, z);        // sources compiled by the kernel
//                                                                   // compiler (canopy-asc, bisheng)
//   aclrtLaunchKernel(func, numBlocks, args, argsSize, stream);     // handle form (acl_rt.h), for
//                                                                   // kernels registered below
//
// A launch is one operation of its stream: it runs after the work enqueued before it, its blocks run
// block-parallel on the device's workers, and a block that faults fails the stream (the next
// synchronize returns the code; aclGetRecentErrMsg names kernel, block and API). The launch calls
// return 0 once the launch is enqueued, else the aclError that rejected it (also reported through
// aclrtGetLastError / aclGetRecentErrMsg like any AscendCL call).
//
// This header is plain C++: no code generation. `<<<...>>>` is not C++: the kernel compiler
// (canopy-asc, installed as bisheng; canopy_add_kernels, the ASC language and ascendc_library compile
// with it) rewrites each launch, found by clang's parser, into a ChevronLaunchAt expression and
// registers the kernels the source defines (KernelRegistrar). Code compiled otherwise registers its
// kernels with CANOPY_REGISTER_KERNEL.
#ifdef __CANOPY_LAUNCH_SCAN__
// canopy-launch-rewrite parses a source as CUDA host code, the clang grammar with `<<<>>>`. One CPU
// runs kernel and host code, so kernels may call any function: every function declared from here on
// is host and device. The standard library comes first, whole, as host code: a function clang
// declares implicitly (operator new, builtins) or that the library declares before the pragma may
// not be redeclared after it. The configuration of a launch becomes a call of
// __cudaPushCallConfiguration, declared for the parse (nothing compiles a call of it).
#include <bits/stdc++.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#pragma clang force_cuda_host_device begin
template <class... Configuration>
int __cudaPushCallConfiguration(Configuration&&...);
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <tuple>

// The part the kernels defined and launched in this translation unit are built for, as __NPU_ARCH__
// names it (canopy-asc --npu-arch); an Atlas A2 (2201) when the compile does not say. Registrations
// and launch sites record it, and a launch on a runtime that models a SoC of another part fails.
#ifdef __NPU_ARCH__
#define CANOPY_KERNEL_NPU_ARCH_ (__NPU_ARCH__)
#else
#define CANOPY_KERNEL_NPU_ARCH_ 2201
#endif
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "canopy/kernel/block.h"
#include "canopy/kernel/simt/simt.h"
#include "canopy/soc.h"

#ifdef __NPU_ARCH__
// A translation unit built for a part (canopy-asc) notes it as the program loads, so that a runtime
// not told which SoC to model (CANOPY_SOC_VERSION) models one of the part the program is built for.
namespace canopy::kernel::detail {
namespace {
[[maybe_unused]] const bool program_part_noted = (soc::note_program_part(__NPU_ARCH__), true);
}  // namespace
}  // namespace canopy::kernel::detail
#endif

#ifdef __CCE__
// bisheng knows Ascend C's qualifiers (__global__, __aicore__, __gm__, ...) without a header: the
// kernel compiler, which defines __CCE__ and force-includes this header, declares them here, so that
// a source naming them before (or without) including kernel_operator.h compiles, and so that
// the launch rewrite's parse sees its kernels as __global__ functions.
#include "canopy/kernel/qualifiers.h"
// What canopy-launch-rewrite turns a kernel's own __ubuf__ arrays into.
#include "canopy/kernel/ub_array.h"
#endif

namespace canopy::kernel {

// numBlocks of a launch lies in [1, max_blocks] (logical cores, as on the NPU).
inline constexpr std::uint32_t max_blocks = 65535;

// One kernel with its captured arguments, called once per block. Type-erased and move-only, with
// room for five pointer arguments inline, so that the launch operation (64 bytes of inline storage
// in the engine) allocates nothing for typical kernels.
class KernelCall {
public:
    static constexpr std::size_t inline_capacity = 40;

    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, KernelCall>>>
    explicit KernelCall(F&& body) {
        using Body = std::decay_t<F>;
        if constexpr (fits_inline<Body>) {
            ::new (static_cast<void*>(storage_)) Body(std::forward<F>(body));
        } else {
            ::new (static_cast<void*>(storage_)) Body*(new Body(std::forward<F>(body)));
        }
        ops_ = &ops_for<Body>;
    }
    KernelCall(KernelCall&& other) noexcept : ops_(other.ops_) {
        if (ops_) {
            ops_->relocate(other.storage_, storage_);
            other.ops_ = nullptr;
        }
    }
    KernelCall& operator=(KernelCall&&) = delete;
    KernelCall(const KernelCall&) = delete;
    KernelCall& operator=(const KernelCall&) = delete;
    ~KernelCall() {
        if (ops_) ops_->destroy(storage_);
    }

    // Runs the kernel for the block set in current_block(). Blocks of one launch call it concurrently.
    void operator()() const { ops_->run(storage_); }

private:
    struct Ops {
        void (*run)(const void* storage);
        void (*relocate)(void* from, void* to) noexcept;  // move-constructs into `to`, destroys `from`
        void (*destroy)(void* storage) noexcept;
    };

    template <class Body>
    static constexpr bool fits_inline = sizeof(Body) <= inline_capacity && alignof(Body) <= alignof(void*) &&
                                        std::is_nothrow_move_constructible_v<Body>;

    template <class Body>
    static constexpr Ops make_ops() {
        if constexpr (fits_inline<Body>) {
            return Ops{[](const void* p) { (*static_cast<const Body*>(p))(); },
                       [](void* from, void* to) noexcept {
                           ::new (to) Body(std::move(*static_cast<Body*>(from)));
                           static_cast<Body*>(from)->~Body();
                       },
                       [](void* p) noexcept { static_cast<Body*>(p)->~Body(); }};
        } else {
            return Ops{[](const void* p) { (**static_cast<Body* const*>(p))(); },
                       [](void* from, void* to) noexcept { ::new (to) Body*(*static_cast<Body**>(from)); },
                       [](void* p) noexcept { delete *static_cast<Body**>(p); }};
        }
    }
    template <class Body>
    static constexpr Ops ops_for = make_ops<Body>();

    const Ops* ops_ = nullptr;
    alignas(void*) unsigned char storage_[inline_capacity];
};

// What the kernel compiler knows of the kernels a `<<<>>>` launch site calls (canopy-launch-rewrite
// writes it into the rewritten launch): the name as the site spells it, whether any of them waits for
// other blocks (so all blocks run at once) and the cores of each block, when the kernel declares them
// (__cube__, __mix__) or its Matmul implies them; otherwise a source compiled once per core type has
// them inferred from what each flavour does (canopy-core-link), and any other runs on one AIV. When
// the site calls one kernel that is neither a template nor overloaded, its address is the symbol
// (the launch's kernel for aclrtGetFuncHandleFromExceptionInfo); else null.
struct ChevronSite {
    const char* kernel;
    bool cooperative;
    bool cores_declared;
    KernelCores cores;
    const void* symbol = nullptr;
    std::uint32_t npu_arch = CANOPY_KERNEL_NPU_ARCH_;  // the part the site's source is built for
};

// What the launch forms hand to the launcher.
struct LaunchRequest {
    const char* kernel;           // the kernel's name, with static storage duration
    const void* symbol;           // the kernel function's address (to find its registration), or null
    std::uint32_t num_blocks;     // checked against [1, max_blocks]
    std::uint32_t dyn_ubuf_bytes; // added to the configured Unified Buffer size of every block
    void* stream;                 // aclrtStream; NULL is the current context's default stream
    const char* api;              // the launch form, naming the call in error messages
    const ChevronSite* site = nullptr;  // a compiled launch site: its kernel traits, not the registry's
    const void* core_split = nullptr;   // a kernel compiled per core type: its AIV entry, naming its traits
};

// Enqueues the launch on its stream. Returns ACL_SUCCESS (0) or the aclError that rejected it.
[[nodiscard]] CANOPY_KERNEL_API std::uint32_t launch(const LaunchRequest& request, KernelCall&& call) noexcept;

namespace detail {

template <class Function>
struct KernelSignature {
    static_assert(sizeof(Function) == 0, "a kernel is a function returning void: extern \"C\" __global__ __aicore__ void name(...)");
};
template <class... Parameters>
struct KernelSignature<void (*)(Parameters...)> {
    static_assert(((!std::is_reference_v<Parameters> ||
                    std::is_const_v<std::remove_reference_t<Parameters>>) && ...),
                  "kernel parameters are passed by value: the blocks of a launch share one copy of the arguments");
    using Parameter = std::tuple<Parameters...>;
    // What a launch keeps of its arguments until the blocks run.
    using Stored = std::tuple<std::remove_cv_t<std::remove_reference_t<Parameters>>...>;
    static constexpr std::size_t arity = sizeof...(Parameters);
};
template <class... Parameters>
struct KernelSignature<void (*)(Parameters...) noexcept> : KernelSignature<void (*)(Parameters...)> {};

template <auto Kernel>
using SignatureOf = KernelSignature<decltype(Kernel)>;

// Converts one launch argument to the kernel's parameter type the way CANN's generated launch
// wrapper accepts it: a __gm__ pointer parameter (the wrapper declares it void*) takes any object
// pointer, so device memory from aclrtMalloc (void*) passes for GM_ADDR (uint8_t*) or float*; a
// struct passed by value may also be given by pointer (the wrapper takes T*); scalars convert as in
// a function call.
template <class Parameter, class Argument>
Parameter convert_argument(Argument&& argument) {
    using P = std::remove_cv_t<Parameter>;
    using A = std::remove_cv_t<std::remove_reference_t<Argument>>;
    if constexpr (std::is_pointer_v<P> && std::is_pointer_v<A>) {
        using From = std::remove_pointer_t<A>;
        using To = std::remove_pointer_t<P>;
        if constexpr (std::is_convertible_v<A, P>) {
            return argument;
        } else {
            static_assert(std::is_object_v<From> || std::is_void_v<From>,
                          "a function pointer cannot be passed for a __gm__ pointer parameter");
            static_assert(!std::is_const_v<From> || std::is_const_v<To>,
                          "a pointer to const cannot be passed for a non-const __gm__ pointer parameter");
            if constexpr (std::is_const_v<From>) return static_cast<P>(static_cast<const void*>(argument));
            else return static_cast<P>(static_cast<void*>(argument));
        }
    } else if constexpr (std::is_class_v<P> && std::is_pointer_v<A> &&
                         std::is_same_v<std::remove_cv_t<std::remove_pointer_t<A>>, P>) {
        return *argument;
    } else {
        static_assert(std::is_convertible_v<Argument&&, P>,
                      "a launch argument does not convert to the kernel's parameter type");
        P converted = std::forward<Argument>(argument);
        return converted;
    }
}

template <auto Kernel, std::size_t... I, class... Arguments>
KernelCall bind_arguments(std::index_sequence<I...>, Arguments&&... arguments) {
    using Signature = SignatureOf<Kernel>;
    typename Signature::Stored stored{
        convert_argument<std::tuple_element_t<I, typename Signature::Stored>>(std::forward<Arguments>(arguments))...};
    return KernelCall([stored]() { std::apply(Kernel, stored); });
}

// The kernel with its arguments captured by value.
template <auto Kernel, class... Arguments>
KernelCall bind_kernel(Arguments&&... arguments) {
    static_assert(sizeof...(Arguments) == SignatureOf<Kernel>::arity,
                  "the launch passes a different number of arguments than the kernel has parameters");
    return bind_arguments<Kernel>(std::make_index_sequence<sizeof...(Arguments)>{},
                                  std::forward<Arguments>(arguments)...);
}

template <auto Kernel>
const void* symbol_of() {
    return reinterpret_cast<const void*>(Kernel);
}

}  // namespace detail

// ACLRT_LAUNCH_KERNEL(name)(numBlocks, stream, args...): returns 0 or the aclError.
template <auto Kernel>
class WrapperLaunch {
public:
    explicit constexpr WrapperLaunch(const char* name) : name_(name) {}

    template <class... Arguments>
    std::uint32_t operator()(std::uint32_t numBlocks, void* stream, Arguments&&... arguments) const {
        return launch(LaunchRequest{name_, detail::symbol_of<Kernel>(), numBlocks, 0, stream, "ACLRT_LAUNCH_KERNEL"},
                      detail::bind_kernel<Kernel>(std::forward<Arguments>(arguments)...));
    }

private:
    const char* name_;
};

// The second value between <<< and >>>: the dynamic Unified Buffer size in bytes. Older samples
// pass nullptr there (the slot once held an L2 control pointer), which means 0.
struct DynamicUBufSize {
    std::uint32_t bytes;
    constexpr DynamicUBufSize(std::nullptr_t) : bytes(0) {}
    constexpr DynamicUBufSize(const void* l2ctrl) : bytes(0) { static_cast<void>(l2ctrl); }
    template <class Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
    constexpr DynamicUBufSize(Integer value) : bytes(static_cast<std::uint32_t>(value)) {}
};

namespace detail {

// A `void*` launch argument for a __gm__ pointer parameter: CANN's launches take device memory from
// aclrtMalloc for GM_ADDR (uint8_t*) or float* parameters, which C++ converts only explicitly.
struct GmAddress {
    void* address;
    template <class T>
    operator T*() const {
        return static_cast<T*>(address);
    }
};
struct ConstGmAddress {
    const void* address;
    template <class T>
    operator const T*() const {
        return static_cast<const T*>(address);
    }
};

// What a compiled launch keeps of one argument until its blocks run: a copy, as a kernel call makes.
template <class Argument>
auto stored_argument(Argument&& argument) {
    using A = std::decay_t<Argument>;
    if constexpr (std::is_same_v<A, void*>) return GmAddress{argument};
    else if constexpr (std::is_same_v<A, const void*>) return ConstGmAddress{argument};
    else return A(std::forward<Argument>(argument));
}

}  // namespace detail

// What canopy-launch-rewrite writes for `kernel<<<numBlocks, dynUBufSize, stream>>>(args...)`:
// `::canopy::kernel::ChevronLaunchAt(site, [](auto&&... a) { kernel(a...); }, numBlocks, dynUBufSize,
// stream)(args...)`, an expression yielding 0 or the aclError. The call inside the lambda is the
// launch's own: the compiler resolves overloaded kernels and deduces template arguments from the
// stored arguments as it did from the launch's.
//
// A source whose kernel code depends on the core type (g_coreType, __DAV_CUBE__ / __DAV_VEC__) is
// compiled twice by canopy-asc, as bisheng compiles it once per core type (__CANOPY_CORE_PASS__ is
// AscendC::AIC or AIV in each). A launch then runs its kernel through two entries, one per core type;
// each compilation defines both alike, and canopy-core-link keeps the AIC entry of the cube
// compilation and the AIV entry of the vector one. Each block runs the entry of its core's type.
// The entries stay functions of their own (not inlined, kept when unused) for the join to find.
namespace detail {

#ifdef __CANOPY_CORE_PASS__
#define CANOPY_CORE_ENTRY [[gnu::noinline, gnu::used]]
#else
#define CANOPY_CORE_ENTRY
#endif

template <class Kernel, class Stored>
CANOPY_CORE_ENTRY void aic_entry(const Kernel& kernel, const Stored& stored) {
    std::apply(kernel, stored);
}

template <class Kernel, class Stored>
CANOPY_CORE_ENTRY void aiv_entry(const Kernel& kernel, const Stored& stored) {
    std::apply(kernel, stored);
}

#undef CANOPY_CORE_ENTRY

}  // namespace detail

// A SIMT launch's first two values, `<<<blocks, threads, dynUBufSize, stream>>>`: a count or a dim3.
struct SimtDim {
    dim3 value;
    constexpr SimtDim(dim3 v) : value(v) {}
    template <class Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
    constexpr SimtDim(Integer count) : value(static_cast<std::uint32_t>(count)) {}
};

template <class Kernel>
class ChevronLaunchAt {
public:
    ChevronLaunchAt(const ChevronSite& site, Kernel kernel, std::uint32_t numBlocks,
                    DynamicUBufSize dynUBufSize = nullptr, void* stream = nullptr)
        : site_(site), kernel_(kernel), num_blocks_(numBlocks), dyn_ubuf_bytes_(dynUBufSize.bytes), stream_(stream) {}
    // The four-value form launches a SIMT kernel (the 950): `threads` threads in each of `blocks`
    // blocks, `dynUBufSize` bytes of dynamic UB per block (extern __ubuf__), on `stream`.
    ChevronLaunchAt(const ChevronSite& site, Kernel kernel, SimtDim blocks, SimtDim threads,
                    DynamicUBufSize dynUBufSize, void* stream)
        : site_(site), kernel_(kernel),
          num_blocks_(static_cast<std::uint32_t>(std::min<std::uint64_t>(
              std::uint64_t(blocks.value.x) * blocks.value.y * blocks.value.z, 0xffffffffu))),
          dyn_ubuf_bytes_(dynUBufSize.bytes), stream_(stream), simt_(true), grid_(blocks.value),
          threads_(threads.value) {}

    template <class... Arguments>
    std::uint32_t operator()(Arguments&&... arguments) const {
        auto stored = std::make_tuple(detail::stored_argument(std::forward<Arguments>(arguments))...);
        Kernel kernel = kernel_;
        LaunchRequest request{site_.kernel, site_.symbol, num_blocks_, dyn_ubuf_bytes_, stream_, "<<<>>>", &site_};
        if (simt_) {
            const dim3 grid = grid_;
            const dim3 threads = threads_;
            return launch(request, KernelCall([kernel, stored, grid, threads]() {
                              simt::run_threads("<<<>>>", grid, threads, [&]() { std::apply(kernel, stored); });
                          }));
        }
#ifdef __CANOPY_CORE_PASS__
        using Stored = decltype(stored);
        request.core_split = reinterpret_cast<const void*>(&detail::aiv_entry<Kernel, Stored>);
        return launch(request, KernelCall([kernel, stored]() {
                          if (current_block().core_type == core_type_aic) detail::aic_entry(kernel, stored);
                          else detail::aiv_entry(kernel, stored);
                      }));
#else
        return launch(request, KernelCall([kernel, stored]() { std::apply(kernel, stored); }));
#endif
    }

private:
    const ChevronSite& site_;
    Kernel kernel_;
    std::uint32_t num_blocks_;
    std::uint32_t dyn_ubuf_bytes_;
    void* stream_;
    bool simt_ = false;
    dim3 grid_;
    dim3 threads_;
};

// ---- Registration: makes a kernel findable by aclrtGetFuncBySymbol (its address) and, inside a
// kernel shared library, by aclrtBinaryGetFunction (its name), and launchable from a packed
// argument blob (aclrtLaunchKernel, aclrtKernelArgsAppend).

// One parameter in a packed argument blob. The layout is that of CANN's generated launch wrapper:
// parameters in order, each at an offset aligned to its alignment rounded up to 4 bytes (pointers
// and 64-bit scalars to 8; bool, 16- and 32-bit scalars to 4).
struct KernelParameter {
    std::size_t size;
    std::size_t alignment;
    std::size_t offset;
    const std::type_info* type;
};

struct KernelRegistration {
    const char* name;
    const void* symbol;
    const KernelParameter* parameters;
    std::size_t arity;
    // Reads the arguments from a packed blob and runs the kernel for the block set in current_block().
    void (*invoke_packed)(const std::byte* arguments);
    // All blocks must run at once (the kernel calls SyncAll).
    bool cooperative;
    // The cores of one logical block (__vector__, __cube__, __mix__(aic, aiv)).
    KernelCores cores{};
    // The part the kernel is built for (__NPU_ARCH__ where it is registered); 0: not known.
    std::uint32_t npu_arch = 0;
};

// The registration must stay alive until unregister_kernel (a static object of the module that
// defines the kernel: registered at load, unregistered at unload).
CANOPY_KERNEL_API void register_kernel(const KernelRegistration& registration);
CANOPY_KERNEL_API void unregister_kernel(const KernelRegistration& registration);
// Records the cores of a registered kernel (CANOPY_KERNEL_CORES); the kernel must be registered.
CANOPY_KERNEL_API void set_kernel_cores(const void* symbol, KernelCores cores);

// The qualifier's checks (what the NPU compiler accepts as __mix__ arguments on the A2).
constexpr bool valid_mix_cores(int aic, int aiv) {
    return (aic == 0 && aiv == 1) || (aic == 1 && (aiv == 0 || aiv == 1 || aiv == 2));
}

namespace detail {

constexpr std::size_t packed_alignment(std::size_t natural) { return (natural + 3) / 4 * 4; }

template <class... Parameters>
struct PackedLayout {
    static constexpr std::size_t count = sizeof...(Parameters);
    static constexpr std::array<std::size_t, count> sizes{sizeof(Parameters)...};
    static constexpr std::array<std::size_t, count> alignments{packed_alignment(alignof(Parameters))...};
    static constexpr std::array<std::size_t, count> offsets = [] {
        std::array<std::size_t, count> result{};
        std::size_t at = 0;
        for (std::size_t i = 0; i < count; ++i) {
            at = (at + alignments[i] - 1) / alignments[i] * alignments[i];
            result[i] = at;
            at += sizes[i];
        }
        return result;
    }();
};

template <class Stored>
struct PackedLayoutOf;
template <class... Parameters>
struct PackedLayoutOf<std::tuple<Parameters...>> : PackedLayout<Parameters...> {
    static std::array<KernelParameter, sizeof...(Parameters)> describe() {
        std::array<KernelParameter, sizeof...(Parameters)> result{};
        const std::type_info* types[] = {&typeid(Parameters)..., nullptr};
        for (std::size_t i = 0; i < sizeof...(Parameters); ++i) {
            result[i] = KernelParameter{PackedLayout<Parameters...>::sizes[i], PackedLayout<Parameters...>::alignments[i],
                                        PackedLayout<Parameters...>::offsets[i], types[i]};
        }
        return result;
    }
};

template <class Tuple>
struct AllTriviallyCopyable;
template <class... T>
struct AllTriviallyCopyable<std::tuple<T...>> : std::bool_constant<(std::is_trivially_copyable_v<T> && ...)> {};

template <class T>
T load_packed(const std::byte* at) {
    // Stored parameters are trivially copyable (checked at registration), so their bytes copied into
    // aligned storage are the object; this also serves types without a default constructor.
    alignas(T) unsigned char raw[sizeof(T)];
    std::memcpy(raw, at, sizeof(T));
    return *std::launder(reinterpret_cast<T*>(raw));
}

template <auto Kernel, std::size_t... I>
void invoke_packed(const std::byte* arguments, std::index_sequence<I...>) {
    using Stored = typename SignatureOf<Kernel>::Stored;
    using Layout = PackedLayoutOf<Stored>;
    static_cast<void>(arguments);  // unused by a kernel without parameters
    Kernel(load_packed<std::tuple_element_t<I, Stored>>(arguments + Layout::offsets[I])...);
}

}  // namespace detail

template <auto Kernel>
class KernelRegistrar {
    using Signature = detail::SignatureOf<Kernel>;
    using Stored = typename Signature::Stored;

public:
    KernelRegistrar(const char* name, bool cooperative, KernelCores cores = KernelCores{},
                    std::uint32_t npu_arch = CANOPY_KERNEL_NPU_ARCH_)
        : parameters_(detail::PackedLayoutOf<Stored>::describe()),
          registration_{name, detail::symbol_of<Kernel>(), parameters_.data(), Signature::arity,
                        [](const std::byte* arguments) {
                            detail::invoke_packed<Kernel>(arguments, std::make_index_sequence<Signature::arity>{});
                        },
                        cooperative, cores, npu_arch} {
        static_assert(detail::AllTriviallyCopyable<Stored>::value,
                      "a registered kernel's parameters must be trivially copyable: they are read from a packed blob");
        register_kernel(registration_);
    }
    ~KernelRegistrar() { unregister_kernel(registration_); }
    KernelRegistrar(const KernelRegistrar&) = delete;
    KernelRegistrar& operator=(const KernelRegistrar&) = delete;

private:
    std::array<KernelParameter, Signature::arity> parameters_;
    KernelRegistration registration_;
};

}  // namespace canopy::kernel

// CANN's generated-wrapper launch: ACLRT_LAUNCH_KERNEL(name)(numBlocks, stream, args...) -> uint32_t.
#define ACLRT_LAUNCH_KERNEL(kernel_function) ::canopy::kernel::WrapperLaunch<kernel_function>(#kernel_function)

// Registers a kernel defined in this translation unit (write it after the definition, at the same
// namespace scope): `CANOPY_REGISTER_KERNEL(add_custom);`. The kernel compiler registers the
// __global__ kernels of the sources it compiles by itself. A kernel that calls SyncAll must be
// registered cooperative so that all its blocks run at once.
#define CANOPY_REGISTER_KERNEL(kernel_function) CANOPY_KERNEL_REGISTRAR_(kernel_function, false, __COUNTER__)
#define CANOPY_REGISTER_COOPERATIVE_KERNEL(kernel_function) CANOPY_KERNEL_REGISTRAR_(kernel_function, true, __COUNTER__)
// The cores a registered kernel runs each block on, written after its registration:
// `CANOPY_KERNEL_CORES(mmad_custom, 1, 2, true)` for `__global__ __mix__(1, 2) void mmad_custom(...)`,
// `(name, 1, 0, false)` for a __cube__ kernel. The kernel compiler records them for those qualifiers.
#define CANOPY_KERNEL_CORES(kernel_function, aic, aiv, mix) \
    CANOPY_KERNEL_CORES_(kernel_function, aic, aiv, mix, __COUNTER__)
#define CANOPY_KERNEL_CORES_(kernel_function, aic, aiv, mix, counter) \
    CANOPY_KERNEL_CORES_NAMED_(kernel_function, aic, aiv, mix, counter)
#define CANOPY_KERNEL_CORES_NAMED_(kernel_function, aic, aiv, mix, counter)                                     \
    static_assert(::canopy::kernel::valid_mix_cores(aic, aiv),                                                   \
                  "__mix__(aic, aiv) takes (0, 1), (1, 0), (1, 1) or (1, 2) on the A2");                         \
    [[maybe_unused]] static const bool canopy_kernel_cores_##counter =                                           \
        (::canopy::kernel::set_kernel_cores(::canopy::kernel::detail::symbol_of<kernel_function>(),              \
                                            ::canopy::kernel::KernelCores{aic, aiv, mix}),                       \
         true)
#define CANOPY_KERNEL_REGISTRAR_(kernel_function, cooperative, counter) \
    CANOPY_KERNEL_REGISTRAR_NAMED_(kernel_function, cooperative, counter)
#define CANOPY_KERNEL_REGISTRAR_NAMED_(kernel_function, cooperative, counter)                      \
    [[maybe_unused]] static ::canopy::kernel::KernelRegistrar<kernel_function> canopy_kernel_registrar_##counter( \
        #kernel_function, cooperative)
