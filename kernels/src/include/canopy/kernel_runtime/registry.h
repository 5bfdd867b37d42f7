#pragma once
// The process-wide registry of kernels (CANOPY_REGISTER_KERNEL objects). It outlives aclInit /
// aclFinalize: kernels register when the module that defines them is loaded (program start or
// dlopen) and unregister when it is unloaded.
#include <atomic>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "canopy/kernel/launch.h"

namespace canopy::kernel {

// One kernel as the runtime knows it. Shared with the function handles made from it, which check
// `alive` so that a kernel whose module was unloaded is refused instead of called.
struct RegisteredKernel {
    std::string name;
    const void* symbol = nullptr;
    const void* module = nullptr;  // the link_map of the executable or shared library defining it
    const KernelRegistration* registration = nullptr;
    bool cooperative = false;
    KernelCores cores;  // set by the registration or by CANOPY_KERNEL_CORES after it
    std::uint32_t npu_arch = 0;  // the part it is built for (0: not known)
    std::atomic<bool> alive{true};
    // The aclrtGetFuncBySymbol handle made for it, so that asking again returns the same handle.
    std::atomic<void*> symbol_handle{nullptr};

    const KernelParameter& parameter(std::size_t i) const { return registration->parameters[i]; }
    std::size_t arity() const { return registration->arity; }
    // The size of the kernel's packed argument blob: the end of its last parameter, and that end
    // rounded up to the largest parameter alignment (sizeof of the equivalent struct).
    std::size_t packed_end() const;
    std::size_t packed_size() const;
    // "add_custom(unsigned char* @0, unsigned char* @8, unsigned int @16)", for error messages.
    std::string signature() const;
};

// One row of the table canopy-core-link writes into an object compiled per core type.
struct CoreSplit {
    const void* aiv_entry;
    std::uint8_t aic;
    std::uint8_t aiv;
    std::uint8_t mix;
    std::uint8_t cooperative;  // a flavour waits for other cores
};

// What canopy-core-link inferred of a kernel compiled per core type.
struct SplitTraits {
    KernelCores cores;
    bool cooperative = false;
};

class KernelRegistry {
public:
    static KernelRegistry& instance();

    void add(const KernelRegistration& registration);
    void remove(const KernelRegistration& registration);

    std::shared_ptr<RegisteredKernel> find_symbol(const void* symbol) const;

    struct Lookup {
        std::shared_ptr<RegisteredKernel> kernel;  // null when not found or ambiguous
        std::size_t matches = 0;
        std::vector<std::string> available;        // the module's kernel names, when not found
    };
    Lookup find_in_module(const void* module, std::string_view name) const;

    // Whether a kernel registered at this address must run all its blocks at once.
    bool cooperative(const void* symbol) const;
    // The cores of each block of the kernel at this address (one AIV when it is not registered).
    KernelCores cores(const void* symbol) const;
    void set_cores(const void* symbol, KernelCores cores);
    // The __NPU_ARCH__ the kernel at this address is built for when that is not the modelled SoC's
    // part (canopy/soc.h), else 0 (also for a kernel that is not registered).
    std::uint32_t foreign_arch(const void* symbol) const;

    // What canopy-core-link inferred for a kernel compiled per core type, keyed by its AIV entry
    // (one AIV, not cooperative, when none is registered).
    SplitTraits split_traits(const void* aiv_entry) const;
    void add_core_splits(const CoreSplit* table, std::size_t count);
    void remove_core_splits(const CoreSplit* table, std::size_t count);

    // The link_map of the module containing `address`, or nullptr.
    static const void* module_of(const void* address);

private:
    KernelRegistry() = default;

    struct Entry {
        std::shared_ptr<RegisteredKernel> kernel;
        std::vector<const KernelRegistration*> registrations;  // the same kernel may be registered twice
    };

    mutable std::shared_mutex mutex_;
    std::unordered_map<const void*, Entry> by_symbol_;
    std::unordered_map<const void*, SplitTraits> core_splits_;
    std::atomic<int> cooperative_count_{0};
    std::atomic<int> typed_count_{0};  // kernels whose blocks are not one AIV
    std::atomic<int> foreign_count_{0};  // kernels built for another part than the modelled one
};

std::string demangled(const std::type_info& type);

}  // namespace canopy::kernel

// Called by the static constructor and destructor canopy-core-link adds to an object compiled per
// core type (exported: api/ascendcl.map).
extern "C" CANOPY_KERNEL_API void canopy_register_core_split(const canopy::kernel::CoreSplit* table, std::uint64_t count);
extern "C" CANOPY_KERNEL_API void canopy_unregister_core_split(const canopy::kernel::CoreSplit* table,
                                                               std::uint64_t count);

namespace canopy::kernel {

}  // namespace canopy::kernel
