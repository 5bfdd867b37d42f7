#pragma once
// The tiling of CANN's SoftMax family and LogSoftMax (adv_api/activation/softmax_tilingdata.h,
// logsoftmax_tilingdata.h): the rows and columns of the source, of the max/sum outputs (one 32-byte
// block per row) and of the row blocks the operator works through with its temporary buffer.
//
// The kernel reads AscendC::tiling::SoftMaxTiling (also ::SoftMaxTiling, as CANN's generated
// kernel_tiling.h exports it); host code fills either that struct or optiling::SoftMaxTiling, the
// tiling-data class with set_/get_ accessors whose bytes are the same (SaveToBuffer).
#include <cstddef>
#include <cstdint>
#include <cstring>

#define CANOPY_SOFTMAX_TILING_FIELDS(X)                                                                             \
    X(srcM) X(srcK) X(srcSize) X(outMaxM) X(outMaxK) X(outMaxSize) X(splitM) X(splitK) X(splitSize) X(reduceM)    \
        X(reduceK) X(reduceSize) X(rangeM) X(tailM) X(tailSplitSize) X(tailReduceSize)

namespace AscendC {
namespace tiling {

#define CANOPY_SOFTMAX_STRUCT_FIELD(name) uint32_t name = 0;
#pragma pack(push, 8)
struct SoftMaxTiling {
    CANOPY_SOFTMAX_TILING_FIELDS(CANOPY_SOFTMAX_STRUCT_FIELD)
};
struct LogSoftMaxTiling {
    CANOPY_SOFTMAX_TILING_FIELDS(CANOPY_SOFTMAX_STRUCT_FIELD)
};
#pragma pack(pop)
#undef CANOPY_SOFTMAX_STRUCT_FIELD

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;

namespace optiling {

#define CANOPY_SOFTMAX_CLASS_FIELD(name)                       \
    uint32_t name = 0;                                        \
    void set_##name(uint32_t value) { name = value; }          \
    uint32_t get_##name() const { return name; }

// The host tiling-data classes (CANN declares them with BEGIN_TILING_DATA_DEF); standard layout, so
// they nest in a tiling-data class with TILING_DATA_FIELD_DEF_STRUCT and copy as bytes.
#define CANOPY_SOFTMAX_TILING_CLASS(Name)                                                                 \
    class Name {                                                                                         \
    public:                                                                                              \
        CANOPY_SOFTMAX_TILING_FIELDS(CANOPY_SOFTMAX_CLASS_FIELD)                                         \
        std::size_t GetDataSize() const { return sizeof(Name); }                                        \
        void SaveToBuffer(void* buffer, std::size_t capacity) const {                                   \
            if (buffer != nullptr && capacity >= sizeof(Name)) std::memcpy(buffer, this, sizeof(Name)); \
        }                                                                                                \
    };

CANOPY_SOFTMAX_TILING_CLASS(SoftMaxTiling)
CANOPY_SOFTMAX_TILING_CLASS(LogSoftMaxTiling)

#undef CANOPY_SOFTMAX_TILING_CLASS
#undef CANOPY_SOFTMAX_CLASS_FIELD

}  // namespace optiling

static_assert(sizeof(optiling::SoftMaxTiling) == sizeof(AscendC::tiling::SoftMaxTiling));
