// Planning an element-wise binary operator. The result type is the promotion of the operands'
// types (PyTorch's rules, which aclnn follows); out must be of a type it casts to, and of the
// broadcast shape. The vector kernel computes on contiguous operands of the result type; an operand
// that is not one (another type, a broadcast shape, a strided view) is first copied into the
// workspace by the copy kernel, and a result that out cannot take directly is computed into the
// workspace and copied out. The planned kernels run in order on the stream of the second phase.
#include <algorithm>
#include <cstring>

#include <Eigen/Core>

#include "elementwise.h"

#include "acl/acl.h"
#include "canopy/engine/detail/checked.h"

namespace canopy::aclnn {

namespace {

// Workspace buffers start on 512-byte boundaries, as CANN lays out its workspaces.
constexpr uint64_t WORKSPACE_ALIGN = 512;

bool is_floating(aclDataType dtype) {
    return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

int float_rank(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT16: case ACL_BF16: return 0;
        case ACL_FLOAT: return 1;
        default: return 2;  // ACL_DOUBLE
    }
}

aclDataType promote(aclDataType a, aclDataType b) {
    if (a == b) return a;
    const bool a_float = is_floating(a);
    const bool b_float = is_floating(b);
    if (a_float != b_float) return a_float ? a : b;
    if (a_float) {
        if (float_rank(a) == 0 && float_rank(b) == 0) return ACL_FLOAT;  // half with bfloat16
        return float_rank(a) >= float_rank(b) ? a : b;
    }
    // Integers: uint8 with int8 needs int16; otherwise the wider type (uint8 is the narrowest).
    if ((a == ACL_UINT8 && b == ACL_INT8) || (a == ACL_INT8 && b == ACL_UINT8)) return ACL_INT16;
    if (a == ACL_UINT8) return b;
    if (b == ACL_UINT8) return a;
    return element_size(a) >= element_size(b) ? a : b;
}

// A float result does not cast to an integer out (it would silently truncate).
bool casts_to(aclDataType from, aclDataType to) { return !(is_floating(from) && !is_floating(to)); }

std::string supported_types() {
    return "ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64";
}

int64_t element_count(const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    return count;
}

// Dimensions of size 1 may carry any stride; the others must be those of a row-major layout.
bool contiguous(const aclTensor& tensor) {
    int64_t expected = 1;
    for (std::size_t i = tensor.view_dims.size(); i-- > 0;) {
        if (tensor.view_dims[i] != 1 && tensor.strides[i] != expected) return false;
        expected *= tensor.view_dims[i];
    }
    return true;
}

// Elements the view reaches from its first element, plus one.
uint64_t extent(const aclTensor& tensor) {
    uint64_t last = 0;
    for (std::size_t i = 0; i < tensor.view_dims.size(); ++i) {
        if (tensor.view_dims[i] == 0) return 0;
        last += static_cast<uint64_t>(tensor.view_dims[i] - 1) * static_cast<uint64_t>(tensor.strides[i]);
    }
    return last + 1;
}

void* first_element(const aclTensor& tensor) {
    return static_cast<char*>(tensor.data) + tensor.offset * static_cast<int64_t>(element_size(tensor.dtype));
}

void check_tensor(const char* argument, const aclTensor& tensor, const char* op) {
    if (!binary_supports(tensor.dtype)) {
        fail(ACLNN_ERR_PARAM_INVALID, std::string(argument) + " has dtype " + dtype_name(tensor.dtype) + ", which " +
                                          op + " does not support (supported: " + supported_types() + ")");
    }
    if (tensor.view_dims.size() > static_cast<std::size_t>(max_rank)) {
        fail(ACLNN_ERR_PARAM_INVALID, std::string(argument) + " has " + std::to_string(tensor.view_dims.size()) +
                                          " dimensions; at most " + std::to_string(max_rank) + " are supported");
    }
    switch (tensor.format) {
        case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_HWCN: case ACL_FORMAT_NDHWC:
        case ACL_FORMAT_NCDHW: case ACL_FORMAT_NC: case ACL_FORMAT_NCL: case ACL_FORMAT_UNDEFINED: break;
        default:
            fail(ACLNN_ERR_PARAM_INVALID, std::string(argument) + " has the private format " +
                                              std::to_string(static_cast<int>(tensor.format)) + "; " + op +
                                              " takes plain layouts (ND, NCHW, NHWC, ...)");
    }
    if (tensor.data == nullptr && element_count(tensor.view_dims) != 0) {
        fail(ACLNN_ERR_PARAM_NULLPTR, std::string(argument) + "'s device address is NULL");
    }
}

std::vector<int64_t> broadcast_shape(const aclTensor& self, const aclTensor& other) {
    const std::size_t rank = std::max(self.view_dims.size(), other.view_dims.size());
    std::vector<int64_t> shape(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const auto dim = [&](const aclTensor& t) {
            const std::size_t r = t.view_dims.size();
            return i + r >= rank ? t.view_dims[i + r - rank] : int64_t{1};
        };
        const int64_t a = dim(self);
        const int64_t b = dim(other);
        if (a != b && a != 1 && b != 1) {
            fail(ACLNN_ERR_PARAM_INVALID, "self's shape " + shape_text(self.view_dims) + " and other's shape " +
                                              shape_text(other.view_dims) + " do not broadcast (dimension " +
                                              std::to_string(i) + ": " + std::to_string(a) + " against " +
                                              std::to_string(b) + ")");
        }
        shape[i] = a == 1 ? b : a;
    }
    return shape;
}

// A scalar's value in the two forms the kernels take.
struct ScalarValue {
    double floating;
    int64_t integer;
};

template <class T>
T read_value(const aclScalar& scalar) {
    T value;
    std::memcpy(&value, scalar.value, sizeof value);
    return value;
}

ScalarValue scalar_value(const aclScalar& scalar) {
    switch (scalar.dtype) {
        case ACL_FLOAT: { const float v = read_value<float>(scalar); return {v, static_cast<int64_t>(v)}; }
        case ACL_DOUBLE: { const double v = read_value<double>(scalar); return {v, static_cast<int64_t>(v)}; }
        case ACL_FLOAT16: { const float v = static_cast<float>(read_value<Eigen::half>(scalar)); return {v, static_cast<int64_t>(v)}; }
        case ACL_BF16: { const float v = static_cast<float>(read_value<Eigen::bfloat16>(scalar)); return {v, static_cast<int64_t>(v)}; }
        case ACL_INT8: { const auto v = read_value<int8_t>(scalar); return {double(v), v}; }
        case ACL_UINT8: { const auto v = read_value<uint8_t>(scalar); return {double(v), v}; }
        case ACL_INT16: { const auto v = read_value<int16_t>(scalar); return {double(v), v}; }
        case ACL_UINT16: { const auto v = read_value<uint16_t>(scalar); return {double(v), v}; }
        case ACL_INT32: { const auto v = read_value<int32_t>(scalar); return {double(v), v}; }
        case ACL_UINT32: { const auto v = read_value<uint32_t>(scalar); return {double(v), v}; }
        case ACL_INT64: { const auto v = read_value<int64_t>(scalar); return {double(v), v}; }
        case ACL_UINT64: { const auto v = read_value<uint64_t>(scalar); return {double(v), static_cast<int64_t>(v)}; }
        case ACL_BOOL: { const bool v = read_value<uint8_t>(scalar) != 0; return {double(v), v}; }
        default: fail(ACLNN_ERR_PARAM_INVALID, "alpha has dtype " + dtype_name(scalar.dtype) + ", which holds no number");
    }
}

// Where a step reads or writes: a tensor's memory, or a buffer at an offset in the workspace.
struct Location {
    void* address;
    uint64_t workspace_offset;
    bool in_workspace;
    void* resolve(void* workspace) const {
        return in_workspace ? static_cast<char*>(workspace) + workspace_offset : address;
    }
};

struct CopyStep {
    Location src;
    Location dst;
    aclDataType src_dtype;
    aclDataType dst_dtype;
    CopyTiling tiling;
};

struct BinaryStep {
    Location self;
    Location other;
    Location out;
    aclDataType dtype;
    BinaryLaunch launch;
};

class BinaryExecutor final : public aclOpExecutor {
public:
    using aclOpExecutor::aclOpExecutor;

    std::vector<CopyStep> inputs;   // before the vector kernel
    BinaryStep compute{};
    bool has_compute = false;       // false for an empty output
    std::vector<CopyStep> outputs;  // after it

    void enqueue(void* workspace, aclrtStream stream) const override {
        for (const CopyStep& step : inputs) run(step, workspace, stream);
        if (has_compute) {
            check_launch(launch_binary(compute.dtype, stream, compute.self.resolve(workspace),
                                       compute.other.resolve(workspace), compute.out.resolve(workspace),
                                       compute.launch));
        }
        for (const CopyStep& step : outputs) run(step, workspace, stream);
    }

private:
    void run(const CopyStep& step, void* workspace, aclrtStream stream) const {
        check_launch(launch_copy(step.src_dtype, step.dst_dtype, stream, step.src.resolve(workspace),
                                 step.dst.resolve(workspace), step.tiling));
    }
    void check_launch(uint32_t code) const {
        if (code == 0) return;
        const char* detail = aclGetRecentErrMsg();
        fail(ACLNN_ERR_RUNTIME_ERROR, std::string("the runtime refused the kernel launch (error ") +
                                          std::to_string(code) + ")" + (detail ? std::string(": ") + detail : ""));
    }
};

// A copy over the broadcast shape: from `tensor` (broadcast to it) into a contiguous buffer, or
// from a contiguous buffer into `tensor` (which has that shape).
CopyTiling copy_tiling(const std::vector<int64_t>& shape, const aclTensor& tensor, bool tensor_is_source) {
    CopyTiling tiling{};
    tiling.total = static_cast<uint64_t>(element_count(shape));
    tiling.rank = static_cast<uint32_t>(shape.size());
    const std::size_t offset = shape.size() - tensor.view_dims.size();
    int64_t contiguous = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        tiling.sizes[i] = shape[i];
        const bool present = i >= offset && tensor.view_dims[i - offset] != 1;
        const int64_t tensor_stride = present ? tensor.strides[i - offset] : 0;
        (tensor_is_source ? tiling.srcStrides : tiling.dstStrides)[i] = tensor_stride;
        (tensor_is_source ? tiling.dstStrides : tiling.srcStrides)[i] = contiguous;
        contiguous *= shape[i];
    }
    (tensor_is_source ? tiling.srcExtent : tiling.dstExtent) = extent(tensor);
    (tensor_is_source ? tiling.dstExtent : tiling.srcExtent) = tiling.total;
    return tiling;
}

}  // namespace

void plan_binary(const char* op, BinaryOp kind, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                 const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    require(self, "self");
    require(other, "other");
    if (kind == BinaryOp::add) require(alpha, "alpha");
    require(out, "out");
    require(workspaceSize, "workspaceSize");
    require(executor, "executor");
    const aclTensor& a = live_tensor(self, "self");
    const aclTensor& b = live_tensor(other, "other");
    const aclTensor& z = live_tensor(out, "out");
    check_tensor("self", a, op);
    check_tensor("other", b, op);
    check_tensor("out", z, op);

    const aclDataType result = promote(a.dtype, b.dtype);
    if (!casts_to(result, z.dtype)) {
        fail(ACLNN_ERR_PARAM_INVALID, "the result type " + dtype_name(result) + " of self (" + dtype_name(a.dtype) +
                                          ") and other (" + dtype_name(b.dtype) + ") cannot be cast to out's " +
                                          dtype_name(z.dtype));
    }
    ScalarValue alpha_value{1.0, 1};
    if (kind == BinaryOp::add) {
        const aclScalar& s = live_scalar(alpha, "alpha");
        alpha_value = scalar_value(s);
        if (s.dtype == ACL_BOOL || (is_floating(s.dtype) && !is_floating(result))) {
            fail(ACLNN_ERR_PARAM_INVALID, "alpha has dtype " + dtype_name(s.dtype) +
                                              ", which cannot be cast to the result type " + dtype_name(result));
        }
    }
    const std::vector<int64_t> shape = broadcast_shape(a, b);
    if (z.view_dims != shape) {
        fail(ACLNN_ERR_PARAM_INVALID, "out's shape " + shape_text(z.view_dims) + " is not the broadcast shape " +
                                          shape_text(shape) + " of self " + shape_text(a.view_dims) + " and other " +
                                          shape_text(b.view_dims));
    }

    auto plan = std::make_unique<BinaryExecutor>(op, 0);
    const uint64_t total = static_cast<uint64_t>(element_count(shape));
    if (total != 0) {
        std::size_t buffer_bytes;
        if (!canopy::engine::detail::checked_mul(total, element_size(result), buffer_bytes) ||
            !canopy::engine::detail::checked_align_up(buffer_bytes, WORKSPACE_ALIGN, buffer_bytes) ||
            buffer_bytes > (std::size_t{1} << 61)) {
            fail(ACLNN_ERR_PARAM_INVALID, "the workspace for " + std::to_string(total) + " elements of " +
                                              dtype_name(result) + " overflows");
        }
        uint64_t workspace_bytes = 0;
        const auto take_buffer = [&] {
            const Location buffer{nullptr, workspace_bytes, true};
            workspace_bytes += buffer_bytes;
            return buffer;
        };
        const auto direct = [&](const aclTensor& t) { return t.dtype == result && t.view_dims == shape && contiguous(t); };
        const auto input = [&](const aclTensor& t) {
            if (direct(t)) return Location{first_element(t), 0, false};
            const Location buffer = take_buffer();
            plan->inputs.push_back(CopyStep{Location{first_element(t), 0, false}, buffer, t.dtype, result,
                                            copy_tiling(shape, t, true)});
            return buffer;
        };
        plan->compute.self = input(a);
        plan->compute.other = input(b);
        if (direct(z)) {
            plan->compute.out = Location{first_element(z), 0, false};
        } else {
            plan->compute.out = take_buffer();
            plan->outputs.push_back(CopyStep{plan->compute.out, Location{first_element(z), 0, false}, result, z.dtype,
                                             copy_tiling(shape, z, false)});
        }
        plan->compute.dtype = result;
        plan->compute.launch = BinaryLaunch{kind, total, alpha_value.floating, alpha_value.integer};
        plan->has_compute = true;
        plan->workspace_bytes = workspace_bytes;
    }
    *workspaceSize = plan->workspace_bytes;
    *executor = adopt_executor(std::move(plan));
}

}  // namespace canopy::aclnn
