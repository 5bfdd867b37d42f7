#pragma once
// Each tiling struct of these APIs is one list of fields, expanded three ways: the kernel's plain
// struct (AscendC::tiling::X, as CANN's generated kernel_tiling.h has it), the host's optiling::X
// tiling-data class, and the copy from the first to the second.
#define CANOPY_TILING_PLAIN_FIELD(type, name) type name = 0;
#define CANOPY_TILING_CLASS_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
#define CANOPY_TILING_COPY_FIELD(type, name) dst.set_##name(src.name);

// Declares AscendC::tiling::name from FIELDS, and `using` it at global scope (CANN's legacy names).
#define CANOPY_DECLARE_KERNEL_TILING(name, FIELDS) \
    namespace AscendC {                            \
    namespace tiling {                             \
    struct name {                                  \
        FIELDS(CANOPY_TILING_PLAIN_FIELD)          \
    };                                             \
    }                                              \
    }                                              \
    using AscendC::tiling::name;

// Declares optiling::name from FIELDS, and the copy of a kernel struct into it.
#define CANOPY_DECLARE_HOST_TILING(name, FIELDS)                                     \
    namespace optiling {                                                             \
    BEGIN_TILING_DATA_DEF(name)                                                      \
    FIELDS(CANOPY_TILING_CLASS_FIELD)                                                \
    END_TILING_DATA_DEF;                                                             \
    }                                                                                \
    namespace canopy::adv {                                                          \
    inline void copy_tiling(const AscendC::tiling::name& src, optiling::name& dst) { \
        FIELDS(CANOPY_TILING_COPY_FIELD)                                             \
    }                                                                                \
    }
