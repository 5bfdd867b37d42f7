// Float overflow: the device's saturation mode and its overflow status. Kernels compute with the
// CPU's IEEE floats, so results overflow to inf / NaN (CANN's ACL_RT_OVERFLOW_MODE_INFNAN, the
// default on Atlas A2); on streams created in ACL_RT_OVERFLOW_MODE_SATURATION the kernel API turns
// an infinite float result into the type's largest finite value and NaN into 0, as CANN documents
// (saturate_results in canopy/kernel/ascendc/eigen_map.h). What the NPU's overflow status register records is modelled with the
// host's IEEE exception flags: a kernel of a stream with overflow detection on that raises an
// overflow, invalid-operation or divide-by-zero flag sets the device's status (kernels/src/launcher.cpp).
#include <cstring>

#include "api.h"
#include "canopy/engine/detail/checked.h"

namespace canopy::api {
namespace {
// aclrtGetOverflowStatus writes a fixed 64-byte record; its first 32 bits are the flag.
constexpr std::size_t status_bytes = 64;
}  // namespace
}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
    return call("aclrtSetDeviceSatMode", [&] {
        State& s = state();
        engine::Device& device = current_context(s).device();
        switch (raw_value(mode)) {
            case ACL_RT_OVERFLOW_MODE_INFNAN: device.set_float_mode(engine::FloatMode::inf_nan); break;
            case ACL_RT_OVERFLOW_MODE_SATURATION: device.set_float_mode(engine::FloatMode::saturation); break;
            default: fail(ACL_ERROR_INVALID_PARAM, "mode " + std::to_string(raw_value(mode)) + " is not an aclrtFloatOverflowMode");
        }
    });
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
    return call("aclrtGetDeviceSatMode", [&] {
        require(mode, "mode");
        const engine::FloatMode current = current_context(state()).device().float_mode();
        *mode = current == engine::FloatMode::inf_nan ? ACL_RT_OVERFLOW_MODE_INFNAN : ACL_RT_OVERFLOW_MODE_SATURATION;
    });
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
    return call("aclrtSetStreamOverflowSwitch", [&] {
        if (flag > 1) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " is neither 0 (off) nor 1 (on)");
        State& s = state();
        target_stream(s, stream, "stream").set_overflow_detection(flag == 1);
    });
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
    return call("aclrtGetStreamOverflowSwitch", [&] {
        require(flag, "flag");
        State& s = state();
        *flag = target_stream(s, stream, "stream").overflow_detection() ? 1 : 0;
    });
}

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
    return call("aclrtGetOverflowStatus", [&] {
        require(outputAddr, "outputAddr");
        if (outputSize != status_bytes)
            fail(ACL_ERROR_INVALID_PARAM, "outputSize " + std::to_string(outputSize) + " must be 64 bytes");
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        const std::optional<engine::Allocation> allocation = allocation_of(s, outputAddr, "outputAddr");
        if (!allocation || allocation->kind != engine::MemoryKind::device ||
            !engine::detail::fits_range(reinterpret_cast<std::uintptr_t>(outputAddr), status_bytes, allocation->base,
                                        allocation->size)) {
            fail(ACL_ERROR_INVALID_PARAM, "outputAddr " + describe(outputAddr) +
                                              " is not 64 bytes of device memory from aclrtMalloc");
        }
        // In stream order, like the NPU's status-copy task: the status of the work enqueued before it.
        engine::Device& device = target.device();
        target.enqueue(engine::Operation{engine::OpKind::memcpy, status_bytes, nullptr, [outputAddr, &device](engine::OpRun&) {
                                             unsigned char record[status_bytes] = {};
                                             const uint32_t overflowed = device.overflowed() ? 1 : 0;
                                             std::memcpy(record, &overflowed, sizeof overflowed);
                                             std::memcpy(outputAddr, record, sizeof record);
                                         }});
    });
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
    return call("aclrtResetOverflowStatus", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        engine::Device& device = target.device();
        target.enqueue(engine::Operation{engine::OpKind::memset, 0, nullptr,
                                         [&device](engine::OpRun&) { device.reset_overflow(); }});
    });
}

}  // extern "C"
