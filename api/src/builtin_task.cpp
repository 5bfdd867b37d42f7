// Built-in tasks: aclrtReduceAsync (the device's element-wise reduce copy) and aclrtRandomNumAsync
// (its random number generator). The arguments and the device memory are checked here; the tasks
// themselves are the kernel runtime's (canopy/kernel_runtime/builtin_tasks.h).
#include "api.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/memory.h"
#include "canopy/kernel_runtime/builtin_tasks.h"

namespace canopy::api {

namespace {

// ---- device memory checks

// [pointer, pointer + bytes) must be device memory of `device`.
// Returns the bytes of the allocation from pointer on.
std::size_t check_device_range(State& state, const void* pointer, std::size_t bytes, const engine::Device& device,
                               const char* argument) {
    const std::optional<engine::Allocation> allocation = allocation_of(state, pointer, argument);
    if (!allocation || allocation->kind != engine::MemoryKind::device)
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + " is not device memory from aclrtMalloc");
    if (allocation->device != &device) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + " is memory of device " +
                                          std::to_string(allocation->device->id()) + ", not of the stream's device " +
                                          std::to_string(device.id()));
    }
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(pointer) - allocation->base;
    if (!engine::detail::fits(offset, bytes, allocation->size)) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + ": " + std::to_string(bytes) +
                                          " bytes at offset " + std::to_string(offset) +
                                          " run past the end of its allocation of " + std::to_string(allocation->size) + " bytes");
    }
    return allocation->size - offset;
}

// ---- random numbers

builtin::RandomParameter parameter(State& state, const aclrtRandomParaInfo& info, const char* argument, std::size_t expected_size) {
    if (info.isAddr > 1) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".isAddr " + std::to_string(info.isAddr) + " must be 0 or 1");
    if (info.size == 0 || info.size > 8 || (expected_size != 0 && info.size != expected_size)) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".size " + std::to_string(info.size) +
                                          (expected_size ? " must be " + std::to_string(expected_size) : std::string(" must be 1 to 8")));
    }
    builtin::RandomParameter result;
    result.address = info.isAddr == 1;
    result.size = info.size;
    std::memcpy(result.inline_bytes, info.valueOrAddr, sizeof result.inline_bytes);
    if (result.address) {
        void* address;
        std::memcpy(&address, info.valueOrAddr, sizeof address);
        require(address, (std::string(argument) + ".valueOrAddr").c_str());
        if (!allocation_of(state, address, (std::string(argument) + ".valueOrAddr").c_str()))
            fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".valueOrAddr " + describe(address) + " is not device memory");
    }
    return result;
}

// The element type of a random number task.
builtin::Element random_type(int type) {
    switch (type) {
        case ACL_FLOAT: return builtin::Element::f32;
        case ACL_FLOAT16: return builtin::Element::f16;
        case ACL_BF16: return builtin::Element::bf16;
        case ACL_INT32: return builtin::Element::i32;
        case ACL_UINT32: return builtin::Element::u32;
        case ACL_INT64: return builtin::Element::i64;
        case ACL_UINT64: return builtin::Element::u64;
        default:
            fail(ACL_ERROR_INVALID_PARAM, "taskInfo->dataType " + std::to_string(type) +
                                              " is not ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, ACL_FLOAT16 or ACL_FLOAT");
    }
}

// The reduce's element type (one the Atlas A2 reduces).
builtin::Element reduce_type(int type) {
    switch (type) {
        case ACL_FLOAT: return builtin::Element::f32;
        case ACL_FLOAT16: return builtin::Element::f16;
        case ACL_BF16: return builtin::Element::bf16;
        case ACL_INT8: return builtin::Element::i8;
        case ACL_INT16: return builtin::Element::i16;
        default: return builtin::Element::i32;
    }
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) {
    return call("aclrtReduceAsync", [&] {
        require(dst, "dst");
        require(src, "src");
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        const int element = raw_value(type);
        switch (element) {
            case ACL_FLOAT: case ACL_FLOAT16: case ACL_BF16: case ACL_INT8: case ACL_INT16: case ACL_INT32: break;
            case ACL_INT4: case ACL_UINT8: case ACL_UINT16: case ACL_UINT32:
                fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "type " + std::to_string(element) +
                                                           ": the Atlas A2 reduce supports int8, int16, int32, fp16, fp32 and bf16 only");
            default: fail(ACL_ERROR_INVALID_PARAM, "type " + std::to_string(element) + " cannot be reduced");
        }
        const int operation = raw_value(kind);
        if (operation == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
            fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "kind ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is supported only on STARS hardware, not on the Atlas A2");
        }
        if (operation < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || operation > ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN)
            fail(ACL_ERROR_INVALID_PARAM, "kind " + std::to_string(operation) + " is not an aclrtReduceKind");
        const std::size_t element_size = aclDataTypeSize(type);
        if (count % element_size != 0) {
            fail(ACL_ERROR_INVALID_PARAM, "count " + std::to_string(count) + " bytes is not a whole number of " +
                                              std::to_string(element_size) + "-byte elements");
        }
        engine::Stream& on = target_stream(s, stream, "stream");
        if (count == 0) return;
        check_device_range(s, dst, count, on.device(), "dst");
        check_device_range(s, src, count, on.device(), "src");
        const builtin::Combine combine = operation == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM   ? builtin::Combine::sum
                                         : operation == ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX ? builtin::Combine::max
                                                                                         : builtin::Combine::min;
        on.enqueue(builtin::reduce_operation(dst, src, count, reduce_type(element), combine));
    });
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve) {
    return call("aclrtRandomNumAsync", [&] {
        require(taskInfo, "taskInfo");
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        const int type = raw_value(taskInfo->dataType);
        const int function = raw_value(taskInfo->randomNumFuncParaInfo.funcType);
        if (function < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK || function > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS) {
            fail(ACL_ERROR_INVALID_PARAM, "taskInfo->randomNumFuncParaInfo.funcType " + std::to_string(function) +
                                              " is not an aclrtRandomNumFuncType");
        }
        const builtin::Element element = random_type(type);
        const std::size_t size = builtin::element_size(element);
        const bool integral = type == ACL_INT32 || type == ACL_UINT32 || type == ACL_INT64 || type == ACL_UINT64;
        if (integral && function != ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
            fail(ACL_ERROR_INVALID_PARAM, "taskInfo->dataType " + std::to_string(type) +
                                              ": integer types are for the uniform distribution only");
        }
        require(taskInfo->randomResultAddr, "taskInfo->randomResultAddr");
        require(taskInfo->randomCounterAddr, "taskInfo->randomCounterAddr");
        const auto& parameters = taskInfo->randomNumFuncParaInfo.paramInfo;
        builtin::RandomTask task;
        task.type = element;
        task.distribution = function == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? builtin::Distribution::dropout_bitmask
                            : function == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS  ? builtin::Distribution::uniform
                            : function == ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS   ? builtin::Distribution::normal
                                                                                   : builtin::Distribution::truncated_normal;
        task.result = taskInfo->randomResultAddr;
        task.counter = taskInfo->randomCounterAddr;
        if (function == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
            task.first = parameter(s, parameters.dropoutBitmaskInfo.dropoutRation, "dropoutRation", size);
        } else if (function == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
            task.first = parameter(s, parameters.uniformDisInfo.min, "min", size);
            task.second = parameter(s, parameters.uniformDisInfo.max, "max", size);
        } else {
            task.first = parameter(s, parameters.normalDisInfo.mean, "mean", size);
            task.second = parameter(s, parameters.normalDisInfo.stddev, "stddev", size);
        }
        task.seed = parameter(s, taskInfo->randomSeed, "randomSeed", 0);
        task.count = parameter(s, taskInfo->randomNum, "randomNum", 0);
        engine::Stream& on = target_stream(s, stream, "stream");
        check_device_range(s, task.counter, 16, on.device(), "taskInfo->randomCounterAddr");
        task.result_capacity = check_device_range(s, task.result, 0, on.device(), "taskInfo->randomResultAddr");
        if (!task.count.address) {
            const std::uint64_t n = task.count.unsigned_value();
            std::size_t bytes;
            if (!task.result_bytes(n, bytes)) {
                fail(ACL_ERROR_INVALID_PARAM, "taskInfo->randomNum " + std::to_string(n) + " numbers of " +
                                                  std::to_string(size) + " bytes overflow size_t");
            }
            check_device_range(s, task.result, bytes, on.device(), "taskInfo->randomResultAddr");
        }
        on.enqueue(builtin::random_operation(task));
    });
}

}  // extern "C"
