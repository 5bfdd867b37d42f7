#pragma once
// The Ascend C kernels behind aclnn's element-wise operators (elementwise_kernels.cpp), launched
// on the caller's stream with ACLRT_LAUNCH_KERNEL like the kernels of any CANN program:
//   binary   out = self (op) other on contiguous operands of one type, through the vector unit,
//            tile by tile with DataCopyPad (any length, any split over the blocks);
//   copy     a strided view of one element type into a strided view of another, converting each
//            element on the scalar unit: broadcasting (stride 0), non-contiguous views and type
//            promotion, into or out of the operator's workspace.
// Each returns 0 once the launch is enqueued, else the runtime's aclError.
#include <cstdint>

#include "acl/acl_base.h"

namespace canopy::aclnn {

inline constexpr int max_rank = 8;

enum class BinaryOp : uint32_t { add, mul };

struct BinaryLaunch {
    BinaryOp op;
    uint64_t total;      // elements
    // add: out = self + alpha * other; the integer form for integer operands
    double alpha_float;
    int64_t alpha_integer;
};

// Elements of `dtype` the vector path computes on.
bool binary_supports(aclDataType dtype);
uint32_t launch_binary(aclDataType dtype, aclrtStream stream, void* self, void* other, void* out,
                       const BinaryLaunch& launch);

struct CopyTiling {
    uint64_t total;        // elements of the view
    uint64_t blockLength;  // elements per block (set by launch_copy)
    uint32_t rank;
    int64_t sizes[max_rank];
    int64_t srcStrides[max_rank];  // elements; 0 along a broadcast dimension
    int64_t dstStrides[max_rank];
    uint64_t srcExtent;    // elements the view reaches from src, for the GlobalTensor bounds
    uint64_t dstExtent;
};

uint32_t launch_copy(aclDataType src_dtype, aclDataType dst_dtype, aclrtStream stream, void* src, void* dst,
                     CopyTiling tiling);

}  // namespace canopy::aclnn
