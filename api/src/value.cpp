// Stream memory operations: aclrtValueWrite stores a 64-bit value in stream order; aclrtValueWait
// holds its stream until a 64-bit value in device memory meets a condition. A wait whose condition
// does not hold when its stream reaches it is parked on the engine's WaitList (its node stays
// unfinished, so the stream's later work waits behind it: a dependency, not a blocked thread) and
// is released by the value write that makes the condition hold. Only aclrtValueWrite re-checks
// parked waits: memory changed by copies or kernels is seen by the waits that run after it.
#include "api.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/memory.h"
#include "canopy/engine/wait_list.h"

namespace canopy::api {

namespace {

// Value waits and writes of every stream meet here: a write on one device may release a wait on
// another, as both address the same memory.
const std::shared_ptr<engine::WaitList>& value_waits() {
    static const std::shared_ptr<engine::WaitList> waits = std::make_shared<engine::WaitList>();
    return waits;
}

// devAddr must be 8-byte aligned device memory with 8 bytes inside its allocation.
std::uint64_t* value_address(State& state, void* devAddr) {
    require(devAddr, "devAddr");
    if (reinterpret_cast<std::uintptr_t>(devAddr) % 8 != 0)
        fail(ACL_ERROR_INVALID_PARAM, "devAddr " + describe(devAddr) + " is not 8-byte aligned");
    const std::optional<engine::Allocation> allocation = allocation_of(state, devAddr, "devAddr");
    if (!allocation || allocation->kind != engine::MemoryKind::device)
        fail(ACL_ERROR_INVALID_PARAM, "devAddr " + describe(devAddr) + " is not device memory from aclrtMalloc");
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(devAddr) - allocation->base;
    if (!engine::detail::fits(offset, sizeof(std::uint64_t), allocation->size)) {
        fail(ACL_ERROR_INVALID_PARAM, "devAddr " + describe(devAddr) + ": the 8-byte value runs past the end of its allocation of " +
                                          std::to_string(allocation->size) + " bytes");
    }
    return static_cast<std::uint64_t*>(devAddr);
}

bool satisfied(std::uint32_t flag, std::uint64_t current, std::uint64_t value) {
    switch (flag) {
        case ACL_STREAM_WAIT_VALUE_GEQ: return static_cast<std::int64_t>(current - value) >= 0;
        case ACL_STREAM_WAIT_VALUE_EQ: return current == value;
        case ACL_STREAM_WAIT_VALUE_AND: return (current & value) != 0;
        default: return ~(current | value) != 0;  // ACL_STREAM_WAIT_VALUE_NOR
    }
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    return call("aclrtValueWrite", [&] {
        State& s = state();
        std::uint64_t* address = value_address(s, devAddr);
        if (flag != 0) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " must be 0 (reserved)");
        engine::Stream& on = target_stream(s, stream, "stream");
        value_waits()->signal(on, [address, value] { __atomic_store_n(address, value, __ATOMIC_RELEASE); });
    });
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    return call("aclrtValueWait", [&] {
        State& s = state();
        std::uint64_t* address = value_address(s, devAddr);
        if (flag > ACL_STREAM_WAIT_VALUE_NOR) {
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) +
                                              " is not an ACL_STREAM_WAIT_VALUE_* mode (GEQ 0, EQ 1, AND 2, NOR 3)");
        }
        engine::Stream& on = target_stream(s, stream, "stream");
        value_waits()->wait(
            on, [address, value, flag] { return satisfied(flag, __atomic_load_n(address, __ATOMIC_ACQUIRE), value); }, {});
    });
}

}  // extern "C"
