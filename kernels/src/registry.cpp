#include "canopy/kernel_runtime/registry.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "canopy/soc.h"

namespace canopy::kernel {

namespace {
bool is_plain(const KernelCores& cores) { return cores.aic == 0 && cores.aiv == 1 && !cores.mix; }
bool is_foreign(std::uint32_t npu_arch) {
    return npu_arch != 0 && npu_arch != static_cast<std::uint32_t>(soc::modelled_part().npu_arch);
}
}  // namespace

std::string demangled(const std::type_info& type) {
    int status = 0;
    char* text = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
    std::string result = (status == 0 && text) ? text : type.name();
    std::free(text);
    return result;
}

std::size_t RegisteredKernel::packed_end() const {
    if (arity() == 0) return 0;
    const KernelParameter& last = parameter(arity() - 1);
    return last.offset + last.size;
}

std::size_t RegisteredKernel::packed_size() const {
    std::size_t alignment = 1;
    for (std::size_t i = 0; i < arity(); ++i) alignment = std::max(alignment, parameter(i).alignment);
    return (packed_end() + alignment - 1) / alignment * alignment;
}

std::string RegisteredKernel::signature() const {
    std::string text = name + "(";
    for (std::size_t i = 0; i < arity(); ++i) {
        const KernelParameter& p = parameter(i);
        if (i) text += ", ";
        text += demangled(*p.type) + " [" + std::to_string(p.size) + " bytes at offset " + std::to_string(p.offset) + "]";
    }
    return text + ")";
}

KernelRegistry& KernelRegistry::instance() {
    // Never destroyed: kernel modules unregister from their static destructors, which may run after
    // this library's own at process exit.
    static KernelRegistry* registry = new KernelRegistry;
    return *registry;
}

const void* KernelRegistry::module_of(const void* address) {
    Dl_info info{};
    struct link_map* map = nullptr;
    if (dladdr1(address, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0) return nullptr;
    return map;
}

void KernelRegistry::add(const KernelRegistration& registration) {
    const void* module = module_of(registration.symbol);
    std::unique_lock lock(mutex_);
    Entry& entry = by_symbol_[registration.symbol];
    if (!entry.kernel) {
        entry.kernel = std::make_shared<RegisteredKernel>();
        entry.kernel->name = registration.name;
        entry.kernel->symbol = registration.symbol;
        entry.kernel->module = module;
        entry.kernel->registration = &registration;
        entry.kernel->npu_arch = registration.npu_arch;
        if (is_foreign(registration.npu_arch)) foreign_count_.fetch_add(1, std::memory_order_relaxed);
    }
    entry.registrations.push_back(&registration);
    const KernelCores cores = registration.cores;
    if (cores.aic != 0 || cores.aiv != 1 || cores.mix) {
        if (is_plain(entry.kernel->cores)) typed_count_.fetch_add(1, std::memory_order_relaxed);
        entry.kernel->cores = cores;
    }
    if (registration.cooperative && !entry.kernel->cooperative) {
        entry.kernel->cooperative = true;
        cooperative_count_.fetch_add(1, std::memory_order_relaxed);
    }
}

void KernelRegistry::remove(const KernelRegistration& registration) {
    std::unique_lock lock(mutex_);
    auto found = by_symbol_.find(registration.symbol);
    if (found == by_symbol_.end()) return;
    Entry& entry = found->second;
    std::erase(entry.registrations, &registration);
    if (!entry.registrations.empty()) {
        // The record's parameter table belongs to the registration going away: use a remaining one.
        entry.kernel->registration = entry.registrations.front();
        return;
    }
    entry.kernel->alive.store(false, std::memory_order_release);
    if (entry.kernel->cooperative) cooperative_count_.fetch_sub(1, std::memory_order_relaxed);
    if (!is_plain(entry.kernel->cores)) typed_count_.fetch_sub(1, std::memory_order_relaxed);
    if (is_foreign(entry.kernel->npu_arch)) foreign_count_.fetch_sub(1, std::memory_order_relaxed);
    by_symbol_.erase(found);
}

std::shared_ptr<RegisteredKernel> KernelRegistry::find_symbol(const void* symbol) const {
    std::shared_lock lock(mutex_);
    auto found = by_symbol_.find(symbol);
    return found == by_symbol_.end() ? nullptr : found->second.kernel;
}

KernelRegistry::Lookup KernelRegistry::find_in_module(const void* module, std::string_view name) const {
    Lookup lookup;
    std::shared_lock lock(mutex_);
    for (const auto& [symbol, entry] : by_symbol_) {
        if (entry.kernel->module != module) continue;
        if (entry.kernel->name == name) {
            ++lookup.matches;
            lookup.kernel = entry.kernel;
        } else {
            lookup.available.push_back(entry.kernel->name);
        }
    }
    if (lookup.matches > 1) lookup.kernel = nullptr;
    std::sort(lookup.available.begin(), lookup.available.end());
    return lookup;
}

bool KernelRegistry::cooperative(const void* symbol) const {
    // Launches of ordinary kernels pay one relaxed load while no cooperative kernel is registered.
    if (cooperative_count_.load(std::memory_order_relaxed) == 0) return false;
    std::shared_lock lock(mutex_);
    auto found = by_symbol_.find(symbol);
    return found != by_symbol_.end() && found->second.kernel->cooperative;
}

std::uint32_t KernelRegistry::foreign_arch(const void* symbol) const {
    // One relaxed load while every registered kernel is built for the modelled part.
    if (foreign_count_.load(std::memory_order_relaxed) == 0) return 0;
    std::shared_lock lock(mutex_);
    auto found = by_symbol_.find(symbol);
    return found != by_symbol_.end() && is_foreign(found->second.kernel->npu_arch) ? found->second.kernel->npu_arch : 0;
}

KernelCores KernelRegistry::cores(const void* symbol) const {
    if (typed_count_.load(std::memory_order_relaxed) == 0) return KernelCores{};
    std::shared_lock lock(mutex_);
    auto found = by_symbol_.find(symbol);
    return found == by_symbol_.end() ? KernelCores{} : found->second.kernel->cores;
}

void KernelRegistry::set_cores(const void* symbol, KernelCores cores) {
    std::unique_lock lock(mutex_);
    auto found = by_symbol_.find(symbol);
    // CANOPY_KERNEL_CORES follows the kernel's registration in the same translation unit.
    if (found == by_symbol_.end()) return;
    KernelCores& current = found->second.kernel->cores;
    if (is_plain(current) && !is_plain(cores)) typed_count_.fetch_add(1, std::memory_order_relaxed);
    if (!is_plain(current) && is_plain(cores)) typed_count_.fetch_sub(1, std::memory_order_relaxed);
    current = cores;
}

SplitTraits KernelRegistry::split_traits(const void* aiv_entry) const {
    std::shared_lock lock(mutex_);
    auto found = core_splits_.find(aiv_entry);
    return found == core_splits_.end() ? SplitTraits{} : found->second;
}

void KernelRegistry::add_core_splits(const CoreSplit* table, std::size_t count) {
    std::unique_lock lock(mutex_);
    for (std::size_t i = 0; i < count; ++i) {
        core_splits_[table[i].aiv_entry] =
            SplitTraits{KernelCores{table[i].aic, table[i].aiv, table[i].mix != 0}, table[i].cooperative != 0};
    }
}

void KernelRegistry::remove_core_splits(const CoreSplit* table, std::size_t count) {
    std::unique_lock lock(mutex_);
    for (std::size_t i = 0; i < count; ++i) core_splits_.erase(table[i].aiv_entry);
}

void set_kernel_cores(const void* symbol, KernelCores cores) { KernelRegistry::instance().set_cores(symbol, cores); }

void register_kernel(const KernelRegistration& registration) { KernelRegistry::instance().add(registration); }

void unregister_kernel(const KernelRegistration& registration) { KernelRegistry::instance().remove(registration); }

}  // namespace canopy::kernel

void canopy_register_core_split(const canopy::kernel::CoreSplit* table, std::uint64_t count) {
    canopy::kernel::KernelRegistry::instance().add_core_splits(table, count);
}

void canopy_unregister_core_split(const canopy::kernel::CoreSplit* table, std::uint64_t count) {
    canopy::kernel::KernelRegistry::instance().remove_core_splits(table, count);
}
