#pragma once
// The shape type of CANN's advanced API host functions (adv_api/utils/types.h): AscendC::TensorShape
// is ge::Shape, a list of dimensions. Canopy has no GE graph library, so the part of ge::Shape the
// tiling functions use is defined here, with the element types' DataType.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ge {

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}

    std::size_t GetDimNum() const { return dims_.size(); }
    // The dimension `index`, or 0 past the last one (as GE answers).
    int64_t GetDim(std::size_t index) const { return index < dims_.size() ? dims_[index] : 0; }
    const std::vector<int64_t>& GetDims() const { return dims_; }
    int SetDim(std::size_t index, int64_t value) {
        if (index >= dims_.size()) return -1;
        dims_[index] = value;
        return 0;
    }
    // The product of the dimensions; 0 for a shape without dimensions (GE's unknown-rank answer
    // is -1 for negative dimensions, kept here).
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t size = 1;
        for (int64_t dim : dims_) {
            if (dim < 0) return -1;
            size *= dim;
        }
        return size;
    }
    bool operator==(const Shape& other) const { return dims_ == other.dims_; }
    bool operator!=(const Shape& other) const { return dims_ != other.dims_; }

private:
    std::vector<int64_t> dims_;
};

}  // namespace ge

namespace ge {
// The element types, with CANN's graph values.
enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_INT4 = 29,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41,
};
}  // namespace ge

namespace AscendC {
using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;
}  // namespace AscendC
