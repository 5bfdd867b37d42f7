// libnnopbase: aclTensor, aclScalar and aclOpExecutor objects. None of them needs aclInit (CANN
// programs create tensors before they pick a device). Live objects are kept in registries so that
// every entry point can refuse a pointer that is not one instead of dereferencing it.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "aclnn_internal.h"
#include "canopy/engine/detail/checked.h"

namespace canopy::aclnn {

namespace {

// The live objects of one kind; the map owns each until its destroy call (or, for a one-shot
// executor, until its work is enqueued).
template <class Object>
class Registry {
public:
    Object* add(std::unique_ptr<Object> object) {
        Object* raw = object.get();
        std::lock_guard lock(mutex_);
        objects_.emplace(raw, std::move(object));
        return raw;
    }
    bool contains(const Object* object) const {
        std::lock_guard lock(mutex_);
        return objects_.contains(object);
    }
    std::unique_ptr<Object> take(const Object* object) {
        std::lock_guard lock(mutex_);
        auto found = objects_.find(object);
        if (found == objects_.end()) return nullptr;
        std::unique_ptr<Object> taken = std::move(found->second);
        objects_.erase(found);
        return taken;
    }

private:
    mutable std::mutex mutex_;
    std::unordered_map<const Object*, std::unique_ptr<Object>> objects_;
};

Registry<aclTensor>& tensors() {
    static Registry<aclTensor> registry;
    return registry;
}
Registry<aclScalar>& scalars() {
    static Registry<aclScalar> registry;
    return registry;
}
Registry<aclOpExecutor>& executors() {
    static Registry<aclOpExecutor> registry;
    return registry;
}

std::string pointer_text(const void* pointer) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", pointer);
    return text;
}

// Formats CANN defines for plain layouts; the private ones (NC1HWC0, fractal) describe storage
// produced by TransData on the NPU, which no Canopy operator reads.
bool known_format(int32_t format) {
    switch (format) {
        case ACL_FORMAT_UNDEFINED: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND:
        case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NDHWC: case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NDC1HWC0:
        case ACL_FRACTAL_Z_3D: case ACL_FORMAT_NC: case ACL_FORMAT_NCL: case ACL_FORMAT_FRACTAL_NZ_C0_16:
        case ACL_FORMAT_FRACTAL_NZ_C0_32: case ACL_FORMAT_FRACTAL_NZ_C0_2: case ACL_FORMAT_FRACTAL_NZ_C0_4:
        case ACL_FORMAT_FRACTAL_NZ_C0_8: return true;
        default: return false;
    }
}

bool known_dtype(int32_t dtype) {
    return element_size(static_cast<aclDataType>(dtype)) != 0 || dtype == ACL_STRING || dtype == ACL_COMPLEX64 ||
           dtype == ACL_COMPLEX128 || dtype == ACL_COMPLEX32 || (dtype >= ACL_INT4 && dtype <= ACL_UINT1) ||
           (dtype >= ACL_HIFLOAT8 && dtype <= ACL_HIFLOAT4_SCALE);
}

// By reference: a value outside the enum (a caller's garbage) is read as bits, never loaded as an aclDataType.
int32_t raw_bits(const aclDataType& dtype) {
    int32_t bits;
    std::memcpy(&bits, &dtype, sizeof bits);
    return bits;
}
int32_t raw_bits(const aclFormat& format) {
    int32_t bits;
    std::memcpy(&bits, &format, sizeof bits);
    return bits;
}

void check_dims(const int64_t* dims, uint64_t count, const char* argument, const char* count_argument) {
    if (dims == nullptr && count != 0) {
        fail(ACLNN_ERR_PARAM_NULLPTR,
             std::string(argument) + " is NULL with " + count_argument + " " + std::to_string(count));
    }
    for (uint64_t i = 0; i < count; ++i) {
        if (dims[i] < 0) {
            fail(ACLNN_ERR_PARAM_INVALID, std::string(argument) + "[" + std::to_string(i) + "] is " +
                                              std::to_string(dims[i]) + "; dimensions are not negative");
        }
    }
}

// Copies a tensor property into a new[] array, the way CANN hands such arrays out.
void hand_out(const std::vector<int64_t>& values, int64_t** array, uint64_t* count, const char* array_argument,
              const char* count_argument) {
    require(array, array_argument);
    require(count, count_argument);
    auto copy = std::make_unique<int64_t[]>(values.size() == 0 ? 1 : values.size());
    std::copy(values.begin(), values.end(), copy.get());
    *array = copy.release();
    *count = values.size();
}

}  // namespace

std::size_t element_size(const aclDataType& dtype) {
    switch (raw_bits(dtype)) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: return 8;
        default: return 0;
    }
}

std::string dtype_name(const aclDataType& dtype) {
    switch (raw_bits(dtype)) {
        case ACL_FLOAT: return "ACL_FLOAT";
        case ACL_FLOAT16: return "ACL_FLOAT16";
        case ACL_BF16: return "ACL_BF16";
        case ACL_DOUBLE: return "ACL_DOUBLE";
        case ACL_INT8: return "ACL_INT8";
        case ACL_UINT8: return "ACL_UINT8";
        case ACL_INT16: return "ACL_INT16";
        case ACL_UINT16: return "ACL_UINT16";
        case ACL_INT32: return "ACL_INT32";
        case ACL_UINT32: return "ACL_UINT32";
        case ACL_INT64: return "ACL_INT64";
        case ACL_UINT64: return "ACL_UINT64";
        case ACL_BOOL: return "ACL_BOOL";
        case ACL_STRING: return "ACL_STRING";
        case ACL_COMPLEX64: return "ACL_COMPLEX64";
        case ACL_COMPLEX128: return "ACL_COMPLEX128";
        case ACL_DT_UNDEFINED: return "ACL_DT_UNDEFINED";
        default: return "aclDataType " + std::to_string(raw_bits(dtype));
    }
}

std::string shape_text(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
    return text + "]";
}

const aclTensor& live_tensor(const aclTensor* tensor, const char* argument) {
    if (!tensors().contains(tensor)) {
        fail(ACLNN_ERR_PARAM_INVALID, std::string(argument) + " " + pointer_text(tensor) +
                                          " is not an aclTensor from aclCreateTensor (or was destroyed)");
    }
    return *tensor;
}

const aclScalar& live_scalar(const aclScalar* scalar, const char* argument) {
    if (!scalars().contains(scalar)) {
        fail(ACLNN_ERR_PARAM_INVALID, std::string(argument) + " " + pointer_text(scalar) +
                                          " is not an aclScalar from aclCreateScalar (or was destroyed)");
    }
    return *scalar;
}

aclOpExecutor* adopt_executor(std::unique_ptr<aclOpExecutor> executor) { return executors().add(std::move(executor)); }

void run_executor(const char* op, void* workspace, uint64_t workspace_bytes, aclOpExecutor* executor,
                  aclrtStream stream) {
    require(executor, "executor");
    if (!executors().contains(executor)) {
        fail(ACLNN_ERR_PARAM_INVALID, "executor " + pointer_text(executor) + " is not an executor from " + op +
                                          "GetWorkspaceSize, or it ran already (make it repeatable to run it again)");
    }
    if (std::strcmp(executor->op, op) != 0) {
        fail(ACLNN_ERR_PARAM_INVALID, "executor " + pointer_text(executor) + " was planned by " + executor->op +
                                          "GetWorkspaceSize, not by " + op + "GetWorkspaceSize");
    }
    if (workspace_bytes < executor->workspace_bytes) {
        fail(ACLNN_ERR_PARAM_INVALID, "workspaceSize is " + std::to_string(workspace_bytes) + " bytes; the call needs " +
                                          std::to_string(executor->workspace_bytes) + " (from " + op +
                                          "GetWorkspaceSize)");
    }
    if (workspace == nullptr && executor->workspace_bytes != 0) {
        fail(ACLNN_ERR_PARAM_NULLPTR, "workspace is NULL; the call needs " +
                                          std::to_string(executor->workspace_bytes) + " bytes of device workspace");
    }
    std::unique_ptr<aclOpExecutor> claimed;
    if (!executor->repeatable) {
        claimed = executors().take(executor);
        if (!claimed) fail(ACLNN_ERR_PARAM_INVALID, "executor " + pointer_text(executor) + " ran already");
    }
    try {
        executor->enqueue(workspace, stream);
    } catch (...) {
        if (claimed) executors().add(std::move(claimed));
        throw;
    }
}

}  // namespace canopy::aclnn

using namespace canopy::aclnn;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
    aclTensor* created = nullptr;
    call("aclCreateTensor", [&] {
        check_dims(viewDims, viewDimsNum, "viewDims", "viewDimsNum");
        check_dims(storageDims, storageDimsNum, "storageDims", "storageDimsNum");
        if (!known_dtype(raw_bits(dataType)) || raw_bits(dataType) == ACL_DT_UNDEFINED) {
            fail(ACLNN_ERR_PARAM_INVALID, "dataType " + dtype_name(dataType) + " is not a tensor element type");
        }
        if (!known_format(raw_bits(format))) {
            fail(ACLNN_ERR_PARAM_INVALID, "format " + std::to_string(raw_bits(format)) + " is not an aclFormat");
        }
        if (offset < 0) fail(ACLNN_ERR_PARAM_INVALID, "offset is " + std::to_string(offset) + "; it is not negative");
        auto tensor = std::make_unique<aclTensor>();
        tensor->view_dims.assign(viewDims, viewDims + viewDimsNum);
        // Without strides the view is contiguous (row-major), as CANN takes it.
        tensor->strides.resize(viewDimsNum);
        int64_t contiguous = 1;
        for (uint64_t i = viewDimsNum; i-- > 0;) {
            if (stride != nullptr) {
                if (stride[i] < 0) {
                    fail(ACLNN_ERR_PARAM_INVALID, "stride[" + std::to_string(i) + "] is " + std::to_string(stride[i]) +
                                                      "; strides are not negative");
                }
                tensor->strides[i] = stride[i];
            } else {
                tensor->strides[i] = contiguous;
                contiguous *= viewDims[i];
            }
        }
        // Element counts, extents and byte sizes are products of caller values; they must not wrap,
        // or the workspace sizes and copy ranges planned from them would be too small.
        {
            using canopy::engine::detail::checked_add;
            using canopy::engine::detail::checked_mul;
            std::size_t count = 1, extent = static_cast<std::size_t>(offset), bytes;
            bool ok = true;
            for (uint64_t i = 0; ok && i < viewDimsNum; ++i) {
                std::size_t span;
                ok = checked_mul(count, static_cast<std::size_t>(viewDims[i]), count) &&
                     (viewDims[i] == 0 ||
                      (checked_mul(static_cast<std::size_t>(viewDims[i] - 1), static_cast<std::size_t>(tensor->strides[i]), span) &&
                       checked_add(extent, span, extent)));
            }
            // 8 bytes: the largest element any operator computes in (its result type may be wider).
            constexpr std::size_t limit = static_cast<std::size_t>(INT64_MAX);
            if (!ok || !checked_mul(count, 8, bytes) || bytes > limit || !checked_mul(extent, 8, bytes) || bytes > limit) {
                fail(ACLNN_ERR_PARAM_INVALID, "viewDims " + shape_text(tensor->view_dims) +
                                                  " with these strides and offset " + std::to_string(offset) +
                                                  " overflow the tensor's element count or extent");
            }
        }
        tensor->offset = offset;
        tensor->dtype = dataType;
        tensor->format = format;
        tensor->storage_dims.assign(storageDims, storageDims + storageDimsNum);
        tensor->data = tensorData;
        created = tensors().add(std::move(tensor));
    });
    return created;
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
    aclScalar* created = nullptr;
    call("aclCreateScalar", [&] {
        require(value, "value");
        const std::size_t size = element_size(dataType);
        if (size == 0) {
            fail(ACLNN_ERR_PARAM_INVALID, "dataType " + dtype_name(dataType) + " is not a scalar type (" +
                                              "a scalar holds a number or a bool)");
        }
        auto scalar = std::make_unique<aclScalar>();
        scalar->dtype = dataType;
        std::memset(scalar->value, 0, sizeof scalar->value);
        std::memcpy(scalar->value, value, size);
        created = scalars().add(std::move(scalar));
    });
    return created;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    return call("aclDestroyTensor", [&] {
        require(tensor, "tensor");
        if (!tensors().take(tensor)) live_tensor(tensor, "tensor");
    });
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
    return call("aclDestroyScalar", [&] {
        require(scalar, "scalar");
        if (!scalars().take(scalar)) live_scalar(scalar, "scalar");
    });
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
    return call("aclGetViewShape", [&] {
        require(tensor, "tensor");
        hand_out(live_tensor(tensor, "tensor").view_dims, viewDims, viewDimsNum, "viewDims", "viewDimsNum");
    });
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
    return call("aclGetStorageShape", [&] {
        require(tensor, "tensor");
        hand_out(live_tensor(tensor, "tensor").storage_dims, storageDims, storageDimsNum, "storageDims",
                 "storageDimsNum");
    });
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
    return call("aclGetViewStrides", [&] {
        require(tensor, "tensor");
        hand_out(live_tensor(tensor, "tensor").strides, stridesValue, stridesNum, "stridesValue", "stridesNum");
    });
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
    return call("aclGetViewOffset", [&] {
        require(tensor, "tensor");
        require(offset, "offset");
        *offset = live_tensor(tensor, "tensor").offset;
    });
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
    return call("aclGetFormat", [&] {
        require(tensor, "tensor");
        require(format, "format");
        *format = live_tensor(tensor, "tensor").format;
    });
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
    return call("aclGetDataType", [&] {
        require(tensor, "tensor");
        require(dataType, "dataType");
        *dataType = live_tensor(tensor, "tensor").dtype;
    });
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
    return call("aclSetAclOpExecutorRepeatable", [&] {
        require(executor, "executor");
        if (!executors().contains(executor)) {
            fail(ACLNN_ERR_PARAM_INVALID, "executor " + pointer_text(executor) +
                                              " is not a live executor (a one-shot executor is released once it ran)");
        }
        executor->repeatable = true;
    });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    return call("aclDestroyAclOpExecutor", [&] {
        require(executor, "executor");
        if (!executors().take(executor)) {
            fail(ACLNN_ERR_PARAM_INVALID, "executor " + pointer_text(executor) +
                                              " is not a live executor (a one-shot executor is released once it ran)");
        }
    });
}

}  // extern "C"
