#pragma once
// Host-side support shared by the tiling functions of the normalization, quantization, reduce,
// sort, index, filter, select, pad and transpose APIs (tiling/tiling_api.h):
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

#include "adv_api/utils/types.h"
#include "canopy/kernel/ascendc/securec.h"

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
