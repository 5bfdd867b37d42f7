#pragma once
// Host-side support shared by the tiling functions of the normalization, quantization, reduce,
// sort, index, filter, select, pad and transpose APIs (tiling/tiling_api.h):
//  - ge::Shape and AscendC::TensorShape, the shape type CANN's tiling functions take;
//  - the optiling tiling-data macros (BEGIN_TILING_DATA_DEF ...) of register/tilingdata_base.h when
//    that header is not installed (the register library's own header wins when it is);
//  - the field lists that define each tiling struct once, as the kernel's plain struct
//    (kernel_tiling/kernel_tiling.h) and as the host's optiling class.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "canopy/adv_norm/tiling_fields.h"

#if __has_include("adv_api/utils/types.h")
#include "adv_api/utils/types.h"
#endif

#ifndef CANOPY_GE_SHAPE_DEFINED
#define CANOPY_GE_SHAPE_DEFINED
namespace ge {
// A tensor's dimensions, as CANN's graph library holds them.
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t index) const { return index < dims_.size() ? dims_[index] : 0; }
    const std::vector<int64_t>& GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t size = 1;
        for (int64_t dim : dims_) size *= dim;
        return size;
    }
    void SetDim(size_t index, int64_t value) {
        if (index < dims_.size()) dims_[index] = value;
    }
    bool operator==(const Shape& other) const { return dims_ == other.dims_; }
    bool operator!=(const Shape& other) const { return dims_ != other.dims_; }

private:
    std::vector<int64_t> dims_;
};
}  // namespace ge
#endif

#ifndef CANOPY_GE_DATATYPE_DEFINED
#define CANOPY_GE_DATATYPE_DEFINED
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
#endif

#ifndef CANOPY_TENSOR_SHAPE_DEFINED
#define CANOPY_TENSOR_SHAPE_DEFINED
namespace AscendC {
using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;
}  // namespace AscendC
#endif

#if __has_include("canopy/kernel/ascendc/securec.h")
#include "canopy/kernel/ascendc/securec.h"
#endif
#ifndef CANOPY_SECUREC_MEMCPY_S
#define CANOPY_SECUREC_MEMCPY_S
// securec's memcpy_s, which CANN's host headers bring along and samples call: copies `count`
// bytes when they fit `destMax` and returns 0; otherwise clears the destination and returns
// nonzero.
inline int memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || destMax == 0) return 22;
    if (src == nullptr || count > destMax) {
        std::memset(dest, 0, destMax);
        return src == nullptr ? 22 : 162;
    }
    if (count != 0) std::memmove(dest, src, count);
    return 0;
}
#endif

#if __has_include("register/tilingdata_base.h")
#include "register/tilingdata_base.h"
#endif

#ifndef BEGIN_TILING_DATA_DEF
// The tiling-data classes: each is laid out as the plain struct the kernel reads (fields in
// declaration order, naturally aligned), so SaveToBuffer is the class's bytes.
#define BEGIN_TILING_DATA_DEF(class_name)                                                          \
    class class_name {                                                                             \
    public:                                                                                        \
        void SaveToBuffer(void* buffer, size_t capacity) const {                                   \
            std::memcpy(buffer, this, capacity < sizeof(class_name) ? capacity : sizeof(class_name)); \
        }                                                                                          \
        size_t GetDataSize() const { return sizeof(class_name); }                                  \
        const uint8_t* GetDataPtr() const { return reinterpret_cast<const uint8_t*>(this); }
#define TILING_DATA_FIELD_DEF(data_type, field_name)                             \
    void set_##field_name(data_type value) { field_name = value; }             \
    data_type get_##field_name() const { return field_name; }                  \
    data_type field_name = 0
#define TILING_DATA_FIELD_DEF_ARR(data_type, array_size, field_name)             \
    void set_##field_name(const data_type* value) {                             \
        std::memcpy(field_name, value, sizeof(data_type) * (array_size));       \
    }                                                                            \
    const data_type* get_##field_name() const { return field_name; }             \
    data_type field_name[array_size] = {}
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) struct_type field_name
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)
#endif
