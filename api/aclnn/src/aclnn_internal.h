#pragma once
// What libnnopbase shares with libopapi: the aclnn status codes, the objects behind the C handles,
// the registry of live objects (so that a pointer that is not a live object is refused, never
// dereferenced), dtype facts and the call wrapper that turns a failure into its status code and
// the thread-local error text (aclGetRecentErrMsg).
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "library_errors.h"

#define CANOPY_ACLNN_INTERNAL __attribute__((visibility("default")))

// CANN's aclnn status codes ("aclnn return codes"); CANN does not publish them in a header.
inline constexpr aclnnStatus ACLNN_SUCCESS = 0;
inline constexpr aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
inline constexpr aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;
inline constexpr aclnnStatus ACLNN_ERR_RUNTIME_ERROR = 361001;
inline constexpr aclnnStatus ACLNN_ERR_INNER = 561000;

struct aclTensor {
    std::vector<int64_t> view_dims;
    std::vector<int64_t> strides;  // elements, one per view dimension
    int64_t offset;                // elements from `data` to the first element
    aclDataType dtype;
    aclFormat format;
    std::vector<int64_t> storage_dims;
    void* data;
};

struct aclScalar {
    aclDataType dtype;
    alignas(8) unsigned char value[8];
};

// A planned operator call: what the first phase returns and the second phase runs.
struct aclOpExecutor {
    aclOpExecutor(const char* name, uint64_t workspace) : op(name), workspace_bytes(workspace) {}
    virtual ~aclOpExecutor() = default;
    // Enqueues the work on the stream; fails (canopy::aclnn::Failure) if the runtime refuses it.
    virtual void enqueue(void* workspace, aclrtStream stream) const = 0;

    const char* op;  // the operator's name, e.g. "aclnnAdd"
    uint64_t workspace_bytes;
    bool repeatable = false;
};

namespace canopy::aclnn {

struct Failure {
    aclnnStatus code;
    std::string message;
};
[[noreturn]] inline void fail(aclnnStatus code, std::string message) { throw Failure{code, std::move(message)}; }

template <class Body>
aclnnStatus call(const char* api, Body&& body) noexcept {
    try {
        body();
        return ACLNN_SUCCESS;
    } catch (const Failure& failure) {
        canopy::api::report_library_error(api, failure.code, failure.message.c_str());
        return failure.code;
    } catch (const std::bad_alloc&) {
        canopy::api::report_library_error(api, ACLNN_ERR_INNER, "out of host memory");
        return ACLNN_ERR_INNER;
    } catch (const std::exception& error) {
        canopy::api::report_library_error(api, ACLNN_ERR_INNER, error.what());
        return ACLNN_ERR_INNER;
    }
}

template <class T>
void require(const T* pointer, const char* argument) {
    if (pointer == nullptr) fail(ACLNN_ERR_PARAM_NULLPTR, std::string(argument) + " is NULL");
}

// The live tensor, or ACLNN_ERR_PARAM_INVALID naming the argument (NULL is the caller's check).
CANOPY_ACLNN_INTERNAL const aclTensor& live_tensor(const aclTensor* tensor, const char* argument);
CANOPY_ACLNN_INTERNAL const aclScalar& live_scalar(const aclScalar* scalar, const char* argument);

// Registers a planned call and hands out its handle.
CANOPY_ACLNN_INTERNAL aclOpExecutor* adopt_executor(std::unique_ptr<aclOpExecutor> executor);
// The second phase of `op`: checks the executor and the workspace, then enqueues the executor's
// work. A one-shot executor is claimed first (so that it runs once even when two threads race for
// it) and released once its work is enqueued; if the runtime refuses the work it stays usable.
CANOPY_ACLNN_INTERNAL void run_executor(const char* op, void* workspace, uint64_t workspace_bytes,
                                        aclOpExecutor* executor, aclrtStream stream);

// Bytes per element of the types aclnn tensors and scalars hold values of; 0 for the others
// (sub-byte, string and complex types).
CANOPY_ACLNN_INTERNAL std::size_t element_size(const aclDataType& dtype);
// "ACL_FLOAT16", or "aclDataType 123" for a value outside the enum.
CANOPY_ACLNN_INTERNAL std::string dtype_name(const aclDataType& dtype);
// "[2, 3]"
CANOPY_ACLNN_INTERNAL std::string shape_text(const std::vector<int64_t>& dims);

}  // namespace canopy::aclnn
