#pragma once
// The Ascend 950's vector functions (VF): a `__simd_vf__` function launched with asc_vf_call runs on
// the vector pipe as one unit, moving data between the block's Unified Buffer and the vector
// registers (Reg::LoadAlign, Reg::StoreAlign, ...) and computing on the registers in between.
//
// A VF is a session (VfSession) on the calling thread. Every register load or store checks its UB
// range and alignment at once, as the vector unit would fault on it, and adds its byte range to the
// session's read or write ranges; adjacent and overlapping accesses merge, so a VF streaming through
// a buffer keeps one range per buffer. When the function returns, each range is reported to the pipe
// model as an instruction of PIPE_V named after the Reg API that first touched it: the model then
// checks the VF against the other pipes exactly as it checks the memory-based vector instructions
// (a VF reading what an MTE2 copy wrote without SetFlag/WaitFlag<MTE2_V> fails the launch). A VF runs
// in program order on one thread, so reporting at its end sees the same order as reporting each
// access: nothing else runs on the block in between. Before the function runs, every deferred MTE2
// move of the block lands (deferred_moves.h): the VF reads the UB through raw pointers.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/qualifiers.h"
#include "canopy/kernel/ascendc/system.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"
#include "canopy/kernel/deferred_moves.h"
#include "canopy/kernel/pipes.h"

namespace canopy::kernel::ascendc::reg {

// The vector length of the 950 (GetVecLen(), soc.h): a register's bytes, whatever the part the
// translation unit is built for, so that the register types have one layout everywhere.
inline constexpr int vl_bytes = 256;
// The UB access unit that aligned loads and stores require.
inline constexpr int block_bytes = 32;

// One byte range of the UB that a VF read or wrote, and the API that first touched it.
struct AccessRange {
    const std::byte* first = nullptr;
    const std::byte* end = nullptr;
    const char* api = nullptr;
};

// What a VF keeps while it runs (see the file comment).
struct VfSession {
    static constexpr int max_ranges = 8;
    const char* signature = nullptr;  // asc_vf_call's __PRETTY_FUNCTION__, naming the VF
    const std::byte* ub = nullptr;
    std::size_t ub_bytes = 0;
    AccessRange reads[max_ranges];
    AccessRange writes[max_ranges];
    int read_count = 0;
    int write_count = 0;
    // The AR special purpose register: the offset in bytes at which the AR form of StoreUnAlign
    // stores next, advanced by the bytes the Squeeze<STORE_REG> before it kept (-1: no Squeeze
    // since the last store; the two alternate). ClearSpr<AR> resets it.
    std::uint64_t ar = 0;
    std::int64_t squeezed = -1;
};

namespace detail {
// The running VF of this thread, nullptr outside one.
inline VfSession*& running_vf() {
    static thread_local VfSession* session = nullptr;
    return session;
}

// The VF's name from asc_vf_call's signature ("... [with auto funcPtr = AddVF<float, 16384>; ...]"
// from g++, "... [funcPtr = &AddVF<float, 16384>, ...]" from clang).
inline std::string vf_name(const char* signature) {
    const std::string_view text(signature ? signature : "");
    std::size_t at = text.find("funcPtr = ");
    if (at == std::string_view::npos) return std::string(text);
    at += 10;
    if (at < text.size() && text[at] == '&') ++at;
    int depth = 0;
    std::size_t end = at;
    for (; end < text.size(); ++end) {
        const char c = text[end];
        if (c == '<' || c == '(') ++depth;
        else if (c == '>' || c == ')') --depth;
        else if ((c == ';' || c == ',' || c == ']') && depth == 0) break;
    }
    return std::string(text.substr(at, end - at));
}
}  // namespace detail

// The running VF; a Reg instruction that touches the UB outside one fails naming `api`.
inline VfSession& session(const char* api) {
    VfSession* running = detail::running_vf();
    if (running == nullptr) [[unlikely]] {
        fail_misuse(api, "a Reg instruction that accesses the UB runs only inside a __simd_vf__ function "
                         "launched with asc_vf_call");
    }
    return *running;
}

// Raises a misuse of `api` inside the running VF, naming the VF.
template <typename... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void fail_in_vf(const char* api, const Parts&... parts) {
    VfSession* running = detail::running_vf();
    fail_misuse(api, "in __simd_vf__ ", detail::vf_name(running ? running->signature : nullptr), ": ", parts...);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void fail_outside_ub(const char* api, const VfSession& vf,
                                                                 const void* address, std::int64_t bytes,
                                                                 bool write) {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    const auto base = reinterpret_cast<std::uintptr_t>(vf.ub);
    if (vf.ub == nullptr) {
        fail_in_vf(api, write ? "stores " : "loads ", bytes, " bytes at address ", at,
                   " but this core has no Unified Buffer (an AIC)");
    }
    if (at >= base && at < base + vf.ub_bytes) {
        fail_in_vf(api, write ? "stores " : "loads ", bytes, " bytes at UB byte ", at - base, ", past the end of the block's ",
                   vf.ub_bytes, "-byte Unified Buffer");
    }
    fail_in_vf(api, write ? "stores " : "loads ", bytes, " bytes at address ", at,
               " (UB byte offset ", static_cast<std::int64_t>(at - base), "), outside the block's ", vf.ub_bytes,
               "-byte Unified Buffer");
}

[[noreturn, gnu::cold, gnu::noinline]] inline void fail_misaligned(const char* api, const VfSession& vf,
                                                                 const void* address, int alignment,
                                                                 const char* mode) {
    const auto offset = reinterpret_cast<std::uintptr_t>(address) - reinterpret_cast<std::uintptr_t>(vf.ub);
    fail_in_vf(api, "UB byte ", offset, " is not ", alignment, "-byte aligned, as ", mode, " requires");
}

// Merges [first, end) into `ranges`: into a range it touches, else a new one, else (all slots
// taken) the nearest range, which then also covers the gap between them (a wider range can only
// make the pipe model stricter).
inline void add_range(AccessRange* ranges, int& count, const std::byte* first, const std::byte* end,
                      const char* api) {
    for (int i = count - 1; i >= 0; --i) {
        AccessRange& range = ranges[i];
        if (first <= range.end && end >= range.first) {
            if (first < range.first) range.first = first;
            if (end > range.end) range.end = end;
            return;
        }
    }
    if (count < VfSession::max_ranges) {
        ranges[count++] = AccessRange{first, end, api};
        return;
    }
    int nearest = 0;
    std::ptrdiff_t gap = PTRDIFF_MAX;
    for (int i = 0; i < count; ++i) {
        const std::ptrdiff_t distance = first > ranges[i].end ? first - ranges[i].end : ranges[i].first - end;
        if (distance < gap) {
            gap = distance;
            nearest = i;
        }
    }
    if (first < ranges[nearest].first) ranges[nearest].first = first;
    if (end > ranges[nearest].end) ranges[nearest].end = end;
}

// Checks that `bytes` at `address` lie in the block's UB with the alignment the access needs, and
// records them. Returns the address as bytes.
inline std::byte* access(const char* api, const void* address, std::int64_t bytes, bool write, int alignment,
                         const char* mode) {
    VfSession& vf = session(api);
    auto* at = static_cast<std::byte*>(const_cast<void*>(address));
    if (at < vf.ub || bytes > static_cast<std::int64_t>(vf.ub_bytes) || at - vf.ub > static_cast<std::ptrdiff_t>(vf.ub_bytes) - bytes) [[unlikely]] {
        fail_outside_ub(api, vf, address, bytes, write);
    }
    if (alignment > 1 && (reinterpret_cast<std::uintptr_t>(at) & std::uintptr_t(alignment - 1)) != 0) [[unlikely]] {
        fail_misaligned(api, vf, address, alignment, mode);
    }
    if (bytes > 0) {
        if (write) add_range(vf.writes, vf.write_count, at, at + bytes, api);
        else add_range(vf.reads, vf.read_count, at, at + bytes, api);
    }
    return at;
}

// Runs one VF: the session is open while `body` runs, its ranges go to the pipe model after.
class VfScope {
public:
    explicit VfScope(const char* signature) {
        if (detail::running_vf() != nullptr) [[unlikely]] {
            fail_in_vf("asc_vf_call", "a VF cannot launch another VF");
        }
        BlockContext& block = current_block();
        session_.signature = signature;
        session_.ub = block.ub;
        session_.ub_bytes = block.ub == nullptr ? 0 : block.ub_bytes;
        // The VF reads the UB through raw pointers: what MTE2 was given lands first.
        if (deferred_move_count != 0) land_all_deferred_moves();
        detail::running_vf() = &session_;
    }
    ~VfScope() { detail::running_vf() = nullptr; }
    VfScope(const VfScope&) = delete;
    VfScope& operator=(const VfScope&) = delete;

    // Reports the VF's accesses as instructions of the vector pipe.
    void finish() {
        detail::running_vf() = nullptr;
        report(session_.reads, session_.read_count, false);
        report(session_.writes, session_.write_count, true);
    }

private:
    void report(const AccessRange* ranges, int count, bool write) {
        for (int i = 0; i < count; ++i) {
            const Operand operand{ranges[i].first, static_cast<std::uint64_t>(ranges[i].end - ranges[i].first),
                                  session_.ub, "UB", write};
            pipe_instruction(Pipe::V, ranges[i].api, &operand, 1);
        }
    }

    VfSession session_;
};

// A __simd_vf__ function called directly, as bisheng allows, runs as a VF just as through
// asc_vf_call: the kernel compiler opens the body of every __simd_vf__ function with one of these
// (canopy-launch-rewrite), which opens the VF session when none runs (a direct call) and reports it
// when the function returns; inside asc_vf_call it does nothing.
class VfEntry {
public:
    explicit VfEntry(const char* signature) {
        if (detail::running_vf() == nullptr) {
            scope_ = new (storage_) VfScope(signature);
            uncaught_ = std::uncaught_exceptions();
        }
    }
    ~VfEntry() noexcept(false) {
        if (scope_ == nullptr) return;
        struct Close {
            VfScope* scope;
            ~Close() { scope->~VfScope(); }
        } close{scope_};
        if (std::uncaught_exceptions() == uncaught_) scope_->finish();
    }
    VfEntry(const VfEntry&) = delete;
    VfEntry& operator=(const VfEntry&) = delete;

private:
    alignas(VfScope) unsigned char storage_[sizeof(VfScope)];
    VfScope* scope_ = nullptr;
    int uncaught_ = 0;
};

}  // namespace canopy::kernel::ascendc::reg

// Launches the SIMD vector function `funcPtr` with `args` (CANN's asc_vf_call for __simd_vf__
// functions). A dim3-first overload for __simt_vf__ functions is more specialised and sits beside it.
template <auto funcPtr, typename... Args>
__aicore__ inline void asc_vf_call(Args&&... args) {
    canopy::kernel::ascendc::reg::VfScope scope(__PRETTY_FUNCTION__);
    funcPtr(std::forward<Args>(args)...);
    scope.finish();
}
