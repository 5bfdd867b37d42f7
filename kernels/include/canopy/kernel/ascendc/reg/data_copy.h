#pragma once
// Moves between the Unified Buffer and the registers. Every access goes through reg::access (vf.h):
// its bytes must lie in the block's UB, aligned as its distribution mode requires (CANN's LoadDist /
// StoreDist tables), and it is recorded for the pipe model. Aligned loads and stores move whole
// registers; the unaligned forms buffer the partial 32-byte block of a store in the UnalignReg until
// the next store continues it or StoreUnAlignPost writes it; gathers and scatters check the
// extent their indices reach.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/reg/mask.h"

namespace canopy::kernel::ascendc::reg {

// Bytes a single-register load of `dist` reads, and the alignment it needs.
template <AscendC::Reg::LoadDist dist>
struct LoadShape;
#define CANOPY_REG_LOAD_SHAPE(mode, read, align)                                   \
    template <>                                                                  \
    struct LoadShape<AscendC::Reg::LoadDist::mode> {                             \
        static constexpr int bytes = read;                                       \
        static constexpr int alignment = align;                                  \
        static constexpr const char* name = "LoadDist::" #mode;                  \
    };
CANOPY_REG_LOAD_SHAPE(DIST_NORM, vl_bytes, 32)
CANOPY_REG_LOAD_SHAPE(DIST_BRC_B8, 1, 1)
CANOPY_REG_LOAD_SHAPE(DIST_BRC_B16, 2, 2)
CANOPY_REG_LOAD_SHAPE(DIST_BRC_B32, 4, 4)
CANOPY_REG_LOAD_SHAPE(DIST_US_B8, vl_bytes / 2, 32)
CANOPY_REG_LOAD_SHAPE(DIST_US_B16, vl_bytes / 2, 32)
CANOPY_REG_LOAD_SHAPE(DIST_DS_B8, 2 * vl_bytes, 32)
CANOPY_REG_LOAD_SHAPE(DIST_DS_B16, 2 * vl_bytes, 32)
CANOPY_REG_LOAD_SHAPE(DIST_UNPACK_B8, vl_bytes / 2, 32)
CANOPY_REG_LOAD_SHAPE(DIST_UNPACK_B16, vl_bytes / 2, 32)
CANOPY_REG_LOAD_SHAPE(DIST_UNPACK_B32, vl_bytes / 2, 32)
CANOPY_REG_LOAD_SHAPE(DIST_UNPACK4_B8, vl_bytes / 4, 32)
CANOPY_REG_LOAD_SHAPE(DIST_BLK, 32, 32)
CANOPY_REG_LOAD_SHAPE(DIST_E2B_B16, vl_bytes / 16, vl_bytes / 16)
CANOPY_REG_LOAD_SHAPE(DIST_E2B_B32, vl_bytes / 8, vl_bytes / 8)
CANOPY_REG_LOAD_SHAPE(DIST_DINTLV_B8, 2 * vl_bytes, 32)
CANOPY_REG_LOAD_SHAPE(DIST_DINTLV_B16, 2 * vl_bytes, 32)
CANOPY_REG_LOAD_SHAPE(DIST_DINTLV_B32, 2 * vl_bytes, 32)
#undef CANOPY_REG_LOAD_SHAPE

template <AscendC::Reg::LoadDist dist>
inline constexpr bool single_load = dist != AscendC::Reg::LoadDist::DIST_DINTLV_B8 &&
                                    dist != AscendC::Reg::LoadDist::DIST_DINTLV_B16 &&
                                    dist != AscendC::Reg::LoadDist::DIST_DINTLV_B32;

// Fills the register bytes `out` (register_bytes: vl_bytes per register) from `src` as `dist`
// distributes them. The sizes are constants, so the copies compile to vector moves.
template <AscendC::Reg::LoadDist dist, int register_bytes>
inline void distribute(std::byte* out, const std::byte* src) {
    using AscendC::Reg::LoadDist;
    auto widen = [&](int element, int factor) {  // each element, then (factor - 1) zero elements
        std::memset(out, 0, vl_bytes);
        for (int i = 0; i < vl_bytes / (element * factor); ++i) std::memcpy(out + i * element * factor, src + i * element, element);
    };
    auto repeat = [&](int element, int times) {  // each element `times` times
        for (int i = 0; i < vl_bytes / element; ++i) std::memcpy(out + i * element, src + (i / times) * element, element);
    };
    if constexpr (dist == LoadDist::DIST_NORM) {
        std::memcpy(out, src, register_bytes);
    } else if constexpr (dist == LoadDist::DIST_BRC_B8 || dist == LoadDist::DIST_BRC_B16 || dist == LoadDist::DIST_BRC_B32) {
        repeat(LoadShape<dist>::bytes, vl_bytes);
    } else if constexpr (dist == LoadDist::DIST_US_B8) {
        repeat(1, 2);
    } else if constexpr (dist == LoadDist::DIST_US_B16) {
        repeat(2, 2);
    } else if constexpr (dist == LoadDist::DIST_DS_B8 || dist == LoadDist::DIST_DS_B16) {
        constexpr int element = dist == LoadDist::DIST_DS_B8 ? 1 : 2;
        for (int i = 0; i < vl_bytes / element; ++i) std::memcpy(out + i * element, src + 2 * i * element, element);
    } else if constexpr (dist == LoadDist::DIST_UNPACK_B8) {
        widen(1, 2);
    } else if constexpr (dist == LoadDist::DIST_UNPACK_B16) {
        widen(2, 2);
    } else if constexpr (dist == LoadDist::DIST_UNPACK_B32) {
        widen(4, 2);
    } else if constexpr (dist == LoadDist::DIST_UNPACK4_B8) {
        widen(1, 4);
    } else if constexpr (dist == LoadDist::DIST_BLK) {
        for (int b = 0; b < vl_bytes / 32; ++b) std::memcpy(out + b * 32, src, 32);
    } else if constexpr (dist == LoadDist::DIST_E2B_B16 || dist == LoadDist::DIST_E2B_B32) {
        constexpr int element = dist == LoadDist::DIST_E2B_B16 ? 2 : 4;
        for (int b = 0; b < vl_bytes / 32; ++b) {
            for (int k = 0; k < 32 / element; ++k) std::memcpy(out + b * 32 + k * element, src + b * element, element);
        }
    } else {
        static_assert(single_load<dist>, "unreachable");
    }
}

// One single-register load of `api` at `address`.
template <AscendC::Reg::LoadDist dist, typename U, typename T>
inline void load(const char* api, U& dst, const T* address) {
    static_assert(single_load<dist>,
                  "the DINTLV distributions load two registers: LoadAlign<T, dist>(dstReg0, dstReg1, srcAddr)");
    static_assert(sizeof(typename RegInfo<U>::T) != 8 || dist == AscendC::Reg::LoadDist::DIST_NORM,
                  "b64 registers load with LoadDist::DIST_NORM only");
    constexpr int register_bytes = RegInfo<U>::reg_num * vl_bytes;
    constexpr int bytes = dist == AscendC::Reg::LoadDist::DIST_NORM ? register_bytes : LoadShape<dist>::bytes;
    const std::byte* src = access(api, address, bytes, false, LoadShape<dist>::alignment, LoadShape<dist>::name);
    distribute<dist, register_bytes>(reinterpret_cast<std::byte*>(lanes(dst)), src);
}

// A dual load: 2 * VL bytes, the even elements into dst0 and the odd ones into dst1.
template <AscendC::Reg::LoadDist dist, typename U, typename T>
inline void load_pair(const char* api, U& dst0, U& dst1, const T* address) {
    static_assert(!single_load<dist>, "a two-register LoadAlign takes a DINTLV distribution");
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    const auto* src = reinterpret_cast<const Lane*>(
        access(api, address, 2 * vl_bytes * RegInfo<U>::reg_num, false, 32, LoadShape<dist>::name));
    Lane* a = lanes(dst0);
    Lane* b = lanes(dst1);
    for (int i = 0; i < count; ++i) {
        std::memcpy(&a[i], &src[2 * i], sizeof(Lane));
        std::memcpy(&b[i], &src[2 * i + 1], sizeof(Lane));
    }
}

// A single-register store of `dist`, writing the elements `mask` selects.
template <AscendC::Reg::StoreDist dist, typename U, typename T>
inline void store(const char* api, T* address, const U& src, const Mask& mask) {
    using AscendC::Reg::StoreDist;
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    constexpr int stride = RegInfo<U>::mask_stride;
    constexpr int element = int(sizeof(Lane));
    if constexpr (dist == StoreDist::DIST_NORM || dist == StoreDist::DIST_NORM_B8 ||
                  dist == StoreDist::DIST_NORM_B16 || dist == StoreDist::DIST_NORM_B32) {
        static_assert(dist == StoreDist::DIST_NORM || (dist == StoreDist::DIST_NORM_B8 && element == 1) ||
                          (dist == StoreDist::DIST_NORM_B16 && element == 2) ||
                          (dist == StoreDist::DIST_NORM_B32 && element == 4),
                      "StoreDist::DIST_NORM_Bn stores registers of n-bit elements");
        auto* dst = reinterpret_cast<Lane*>(access(api, address, count * element, true, 32, "StoreDist::DIST_NORM"));
        if (all_selected<stride>(mask)) {
            std::memcpy(static_cast<void*>(dst), lanes(src), count * element);
            return;
        }
        const Lane* from = lanes(src);
        for (int i = 0; i < count; ++i) {
            if (bit(mask, i * stride)) dst[i] = from[i];
        }
    } else if constexpr (dist == StoreDist::DIST_FIRST_ELEMENT_B8 || dist == StoreDist::DIST_FIRST_ELEMENT_B16 ||
                         dist == StoreDist::DIST_FIRST_ELEMENT_B32) {
        constexpr int bytes = dist == StoreDist::DIST_FIRST_ELEMENT_B8 ? 1 : dist == StoreDist::DIST_FIRST_ELEMENT_B16 ? 2 : 4;
        static_assert(bytes == element, "StoreDist::DIST_FIRST_ELEMENT_Bn stores a register of n-bit elements");
        std::byte* dst = access(api, address, bytes, true, bytes, "StoreDist::DIST_FIRST_ELEMENT");
        std::memcpy(dst, lanes(src), bytes);
    } else if constexpr (dist == StoreDist::DIST_PACK_B16 || dist == StoreDist::DIST_PACK_B32 ||
                         dist == StoreDist::DIST_PACK_B64 || dist == StoreDist::DIST_PACK4_B32) {
        constexpr int from_bytes = dist == StoreDist::DIST_PACK_B16 ? 2 : dist == StoreDist::DIST_PACK_B64 ? 8 : 4;
        constexpr int to_bytes = dist == StoreDist::DIST_PACK4_B32 ? 1 : from_bytes / 2;
        static_assert(from_bytes == element, "StoreDist::DIST_PACK_Bn stores a register of n-bit elements");
        std::byte* dst = access(api, address, count * to_bytes, true, std::min(32, vl_bytes / (from_bytes / to_bytes)),
                                "StoreDist::DIST_PACK");
        const auto* from = reinterpret_cast<const std::byte*>(lanes(src));
        for (int i = 0; i < count; ++i) {
            if (bit(mask, i * stride)) std::memcpy(dst + i * to_bytes, from + i * from_bytes, to_bytes);  // little-endian low part
        }
    } else {
        static_assert(dist == StoreDist::DIST_NORM,
                      "the INTLV distributions store two registers: StoreAlign<T, dist>(dstAddr, srcReg0, srcReg1, mask); "
                      "the MRG*CHN distributions are not available on dav-3510");
    }
}

// A dual store: src0 and src1 interleaved element by element over 2 * VL bytes (the mask ignored).
template <AscendC::Reg::StoreDist dist, typename U, typename T>
inline void store_pair(const char* api, T* address, const U& src0, const U& src1) {
    using AscendC::Reg::StoreDist;
    static_assert(dist == StoreDist::DIST_INTLV_B8 || dist == StoreDist::DIST_INTLV_B16 || dist == StoreDist::DIST_INTLV_B32,
                  "a two-register StoreAlign takes an INTLV distribution");
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    auto* dst = reinterpret_cast<Lane*>(access(api, address, 2 * count * int(sizeof(Lane)), true, 32, "StoreDist::DIST_INTLV"));
    const Lane* a = lanes(src0);
    const Lane* b = lanes(src1);
    for (int i = 0; i < count; ++i) {
        dst[2 * i] = a[i];
        dst[2 * i + 1] = b[i];
    }
}

}  // namespace canopy::kernel::ascendc::reg

namespace AscendC {
namespace Reg {

template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0) {
    return AddrReg{int64_t(index0) * stride0};
}
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1) {
    return AddrReg{int64_t(index0) * stride0 + int64_t(index1) * stride1};
}
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2) {
    return AddrReg{int64_t(index0) * stride0 + int64_t(index1) * stride1 + int64_t(index2) * stride2};
}
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2, uint16_t index3, uint32_t stride3) {
    return AddrReg{int64_t(index0) * stride0 + int64_t(index1) * stride1 + int64_t(index2) * stride2 +
                   int64_t(index3) * stride3};
}

// vld: one register (or a b64 pair) from srcAddr.
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr) {
    canopy::kernel::ascendc::reg::load<dist>("Reg::LoadAlign", dstReg, srcAddr);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign with a stride takes PostLiteral::POST_MODE_UPDATE");
    canopy::kernel::ascendc::reg::load<dist>("Reg::LoadAlign", dstReg, srcAddr);
    srcAddr += postUpdateStride;
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset) {
    canopy::kernel::ascendc::reg::load<dist>("Reg::LoadAlign", dstReg, srcAddr + offset.offset);
}
// vld dual
template <typename T = DefaultType, LoadDist dist, typename U>
__aicore__ inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr) {
    canopy::kernel::ascendc::reg::load_pair<dist>("Reg::LoadAlign", dstReg0, dstReg1, srcAddr);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist, typename U>
__aicore__ inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T*& srcAddr, int32_t postUpdateStride) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign with a stride takes PostLiteral::POST_MODE_UPDATE");
    canopy::kernel::ascendc::reg::load_pair<dist>("Reg::LoadAlign", dstReg0, dstReg1, srcAddr);
    srcAddr += postUpdateStride;
}
template <typename T = DefaultType, LoadDist dist, typename U>
__aicore__ inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, AddrReg offset) {
    canopy::kernel::ascendc::reg::load_pair<dist>("Reg::LoadAlign", dstReg0, dstReg1, srcAddr + offset.offset);
}

// vst: the elements mask selects.
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask) {
    canopy::kernel::ascendc::reg::store<dist>("Reg::StoreAlign", dstAddr, srcReg, mask);
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreAlign with a stride takes PostLiteral::POST_MODE_UPDATE");
    canopy::kernel::ascendc::reg::store<dist>("Reg::StoreAlign", dstAddr, srcReg, mask);
    dstAddr += postUpdateStride;
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask) {
    canopy::kernel::ascendc::reg::store<dist>("Reg::StoreAlign", dstAddr + offset.offset, srcReg, mask);
}
// vst dual
template <typename T = DefaultType, StoreDist dist, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, MaskReg& mask) {
    static_cast<void>(mask);  // the interleaving stores ignore the mask (CANN's StoreDist table)
    canopy::kernel::ascendc::reg::store_pair<dist>("Reg::StoreAlign", dstAddr, srcReg0, srcReg1);
}
template <typename T = DefaultType, StoreDist dist, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, AddrReg offset, MaskReg& mask) {
    static_cast<void>(mask);
    canopy::kernel::ascendc::reg::store_pair<dist>("Reg::StoreAlign", dstAddr + offset.offset, srcReg0, srcReg1);
}

// vsldb / vsstb: the register's 32-byte blocks at dataBlockStride blocks apart; a block whose
// elements the mask leaves all unselected is not read (or written).
template <typename T = DefaultType, DataCopyMode dataMode, typename U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, uint32_t dataBlockStride, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(RegInfo<U>::reg_num == 1, "DATA_BLOCK_COPY moves one register");
    constexpr int blocks = vl_bytes / block_bytes;
    const int64_t extent = int64_t(dataBlockStride) * (blocks - 1) * block_bytes + block_bytes;
    const std::byte* src = access("Reg::LoadAlign", srcAddr, extent, false, 32, "DataCopyMode::DATA_BLOCK_COPY");
    auto* out = reinterpret_cast<std::byte*>(lanes(dstReg));
    for (int b = 0; b < blocks; ++b) std::memcpy(out + b * block_bytes, src + int64_t(b) * dataBlockStride * block_bytes, block_bytes);
    typename RegInfo<U>::Lane loaded[RegInfo<U>::lanes];
    std::memcpy(static_cast<void*>(loaded), out, vl_bytes);
    blend<false, RegInfo<U>::lanes, RegInfo<U>::mask_stride>(lanes(dstReg), loaded, mask);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, uint32_t dataBlockStride, uint32_t repeatStride,
                                 MaskReg& mask) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "the repeat-stride form takes PostLiteral::POST_MODE_UPDATE");
    LoadAlign<T, dataMode>(dstReg, srcAddr, dataBlockStride, mask);
    srcAddr += int64_t(repeatStride) * canopy::kernel::ascendc::reg::block_bytes / int64_t(sizeof(T));
}
template <typename T = DefaultType, DataCopyMode dataMode, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, uint32_t dataBlockStride, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(RegInfo<U>::reg_num == 1, "DATA_BLOCK_COPY moves one register");
    constexpr int blocks = vl_bytes / block_bytes;
    constexpr int per_block = RegInfo<U>::lanes / blocks;
    constexpr int stride = RegInfo<U>::mask_stride;
    using Lane = typename RegInfo<U>::Lane;
    const int64_t extent = int64_t(dataBlockStride) * (blocks - 1) * block_bytes + block_bytes;
    std::byte* dst = access("Reg::StoreAlign", dstAddr, extent, true, 32, "DataCopyMode::DATA_BLOCK_COPY");
    const Lane* from = lanes(srcReg);
    for (int b = 0; b < blocks; ++b) {
        auto* block = reinterpret_cast<Lane*>(dst + int64_t(b) * dataBlockStride * block_bytes);
        for (int k = 0; k < per_block; ++k) {
            if (bit(mask, (b * per_block + k) * stride)) block[k] = from[b * per_block + k];
        }
    }
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U>
__aicore__ inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, uint32_t dataBlockStride, uint32_t repeatStride,
                                  MaskReg& mask) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "the repeat-stride form takes PostLiteral::POST_MODE_UPDATE");
    StoreAlign<T, dataMode>(dstAddr, srcReg, dataBlockStride, mask);
    dstAddr += int64_t(repeatStride) * canopy::kernel::ascendc::reg::block_bytes / int64_t(sizeof(T));
}

// vldas / vldus: an unaligned load reads VL bytes from any element address. The priming load
// (LoadUnAlignPre) reads the aligned block the address falls in.
template <typename T>
__aicore__ inline void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr) {
    using namespace canopy::kernel::ascendc::reg;
    const auto at = reinterpret_cast<uintptr_t>(srcAddr);
    const auto* block = reinterpret_cast<const T*>(at & ~uintptr_t(block_bytes - 1));
    std::memcpy(ureg.data, access("Reg::LoadUnAlignPre", block, block_bytes, false, 32, "LoadUnAlignPre"), block_bytes);
    ureg.address = nullptr;
    ureg.pending = 0;
}
template <typename T = DefaultType, typename U>
__aicore__ inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T* srcAddr) {
    using namespace canopy::kernel::ascendc::reg;
    static_cast<void>(ureg);
    constexpr int bytes = RegInfo<U>::reg_num * vl_bytes;
    std::memcpy(static_cast<void*>(lanes(dstReg)), access("Reg::LoadUnAlign", srcAddr, bytes, false, int(sizeof(T)), "an element address"), bytes);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride) {
    LoadUnAlign<T>(dstReg, ureg, static_cast<__ubuf__ T*>(srcAddr));
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += postUpdateStride;
}
template <typename T>
__aicore__ inline void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, AddrReg& areg) {
    LoadUnAlignPre(ureg, srcAddr + areg.offset);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, AddrReg& areg, uint32_t inc) {
    LoadUnAlign<T>(dstReg, ureg, static_cast<__ubuf__ T*>(srcAddr + areg.offset));
    srcAddr += inc;
}
// Load: a whole register from an element address.
template <typename T = DefaultType, typename U>
__aicore__ inline void Load(U& dstReg, __ubuf__ T* srcAddr) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int bytes = RegInfo<U>::reg_num * vl_bytes;
    std::memcpy(static_cast<void*>(lanes(dstReg)), access("Reg::Load", srcAddr, bytes, false, int(sizeof(T)), "an element address"), bytes);
}

}  // namespace Reg
}  // namespace AscendC

namespace canopy::kernel::ascendc::reg {

// Writes `bytes` at `at` through the unaligned register: the 32-byte blocks they complete go to the
// UB, the bytes of a trailing partial block stay pending in `ureg` (flushed first if they do not
// continue at `at`).
inline void store_unaligned(const char* api, Unaligned& ureg, std::byte* at, const std::byte* bytes, int64_t count) {
    if (ureg.pending > 0 && ureg.address + ureg.pending != at) {
        std::memcpy(access(api, ureg.address, ureg.pending, true, 1, "an element address"), ureg.data, ureg.pending);
        ureg.pending = 0;
    }
    std::byte* start = ureg.pending > 0 ? ureg.address : at;
    const int64_t total = ureg.pending + count;
    const auto end = reinterpret_cast<std::uintptr_t>(start) + total;
    const int64_t tail = int64_t(end % block_bytes) < total ? int64_t(end % block_bytes) : total;
    const int64_t direct = total - tail;
    if (direct > 0) {
        std::byte* dst = access(api, start, direct, true, 1, "an element address");
        std::memcpy(dst, ureg.data, ureg.pending);
        std::memcpy(dst + ureg.pending, bytes, direct - ureg.pending);
        std::memcpy(ureg.data, bytes + (direct - ureg.pending), tail);
    } else {
        std::memcpy(ureg.data + ureg.pending, bytes, count);
    }
    ureg.address = start + direct;
    ureg.pending = int(tail);
}

inline void flush_unaligned(const char* api, Unaligned& ureg) {
    if (ureg.pending > 0) {
        std::memcpy(access(api, ureg.address, ureg.pending, true, 1, "an element address"), ureg.data, ureg.pending);
    }
    ureg.pending = 0;
    ureg.address = nullptr;
}

}  // namespace canopy::kernel::ascendc::reg

namespace AscendC {
namespace Reg {

// vstus: postUpdateStride elements of srcReg to dstAddr, then dstAddr += postUpdateStride.
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, uint32_t postUpdateStride) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreUnAlign with a stride takes PostLiteral::POST_MODE_UPDATE");
    using Lane = typename RegInfo<U>::Lane;
    if (postUpdateStride > uint32_t(RegInfo<U>::lanes)) [[unlikely]] {
        fail_in_vf("Reg::StoreUnAlign", "postUpdateStride ", postUpdateStride, " is more than the register's ",
                   RegInfo<U>::lanes, " elements");
    }
    store_unaligned("Reg::StoreUnAlign", ureg, reinterpret_cast<std::byte*>(dstAddr),
                    reinterpret_cast<const std::byte*>(lanes(srcReg)), int64_t(postUpdateStride) * sizeof(Lane));
    dstAddr += postUpdateStride;
}
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
__aicore__ inline void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride) {
    canopy::kernel::ascendc::reg::flush_unaligned("Reg::StoreUnAlignPost", ureg);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
// vstu / vsta: a whole register at dstAddr + areg.
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, AddrReg& areg) {
    using namespace canopy::kernel::ascendc::reg;
    store_unaligned("Reg::StoreUnAlign", ureg, reinterpret_cast<std::byte*>(dstAddr + areg.offset),
                    reinterpret_cast<const std::byte*>(lanes(srcReg)), RegInfo<U>::reg_num * vl_bytes);
}
template <typename T>
__aicore__ inline void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, AddrReg& areg) {
    static_cast<void>(dstAddr);
    static_cast<void>(areg);
    canopy::kernel::ascendc::reg::flush_unaligned("Reg::StoreUnAlignPost", ureg);
}
// vstur / vstar: what the Squeeze<STORE_REG> before it kept, at dstAddr + AR; AR advances past it.
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void StoreUnAlign(__ubuf__ T* dstAddr, U& srcReg, UnalignRegForStore& ureg) {
    using namespace canopy::kernel::ascendc::reg;
    VfSession& vf = session("Reg::StoreUnAlign");
    if (vf.squeezed < 0) [[unlikely]] {
        fail_in_vf("Reg::StoreUnAlign", "the AR form stores what the Squeeze<GatherMaskMode::STORE_REG> before it kept; "
                   "the two must alternate, and no Squeeze ran since the last store");
    }
    store_unaligned("Reg::StoreUnAlign", ureg, reinterpret_cast<std::byte*>(dstAddr) + vf.ar,
                    reinterpret_cast<const std::byte*>(lanes(srcReg)), vf.squeezed);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) vf.ar += uint64_t(vf.squeezed);
    vf.squeezed = -1;
}
template <typename T>
__aicore__ inline void StoreUnAlignPost(__ubuf__ T* dstAddr, UnalignRegForStore& ureg) {
    static_cast<void>(dstAddr);
    canopy::kernel::ascendc::reg::flush_unaligned("Reg::StoreUnAlignPost", ureg);
}
// Store: a whole register, or its first `count` elements, at an element address.
template <typename T = DefaultType, typename U>
__aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int bytes = RegInfo<U>::reg_num * vl_bytes;
    std::memcpy(access("Reg::Store", dstAddr, bytes, true, int(sizeof(T)), "an element address"), lanes(srcReg), bytes);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg, uint32_t count) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    if (count > uint32_t(RegInfo<U>::lanes)) [[unlikely]] {
        fail_in_vf("Reg::Store", "count ", count, " is more than the register's ", RegInfo<U>::lanes, " elements");
    }
    std::memcpy(access("Reg::Store", dstAddr, int64_t(count) * sizeof(Lane), true, int(sizeof(T)), "an element address"),
                lanes(srcReg), count * sizeof(Lane));
}

// vgather2: dst[i] = baseAddr[index[i]] for the selected elements (0 elsewhere).
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
__aicore__ inline void Gather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<T3>::Lane;
    using Index = typename RegInfo<T4>::Lane;
    constexpr int count = RegInfo<T3>::lanes < RegInfo<T4>::lanes ? RegInfo<T3>::lanes : RegInfo<T4>::lanes;
    static_assert(sizeof(Lane) == sizeof(T1), "Gather's base address has the destination register's element type");
    constexpr int stride = RegInfo<T4>::mask_stride;
    const Index* idx = lanes(index);
    int64_t highest = -1;
    for (int i = 0; i < count; ++i) {
        if (bit(mask, i * stride) && int64_t(idx[i]) > highest) highest = int64_t(idx[i]);
    }
    Lane result[RegInfo<T3>::lanes] = {};
    if (highest >= 0) {
        const auto* base = reinterpret_cast<const Lane*>(
            access("Reg::Gather", baseAddr, (highest + 1) * int64_t(sizeof(Lane)), false, int(sizeof(Lane)), "an element address"));
        for (int i = 0; i < count; ++i) {
            if (bit(mask, i * stride)) result[i] = base[idx[i]];
        }
    }
    std::memcpy(static_cast<void*>(lanes(dstReg)), result, sizeof result);
}

// vgatherb: the 32-byte block at byte offset index[b] of baseAddr into block b of dst.
template <typename T = DefaultType, typename U, typename S>
__aicore__ inline void GatherB(U& dstReg, __ubuf__ T* baseAddr, S& index, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(sizeof(typename RegInfo<S>::Lane) == 4, "GatherB's offsets are uint32_t");
    constexpr int blocks = vl_bytes / block_bytes;
    constexpr int per_block = RegInfo<U>::lanes / blocks;
    const auto* offsets = lanes(index);
    auto* out = reinterpret_cast<std::byte*>(lanes(dstReg));
    std::memset(out, 0, vl_bytes);
    for (int b = 0; b < blocks; ++b) {
        if (!bit(mask, b * per_block * RegInfo<U>::mask_stride)) continue;
        const std::byte* block = access("Reg::GatherB", reinterpret_cast<const std::byte*>(baseAddr) + offsets[b],
                                        block_bytes, false, 32, "GatherB (32-byte block offsets)");
        std::memcpy(out + b * block_bytes, block, block_bytes);
    }
}

// vscatter: baseAddr[index[i]] = src[i] for the selected elements.
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void Scatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    using Index = typename RegInfo<V>::Lane;
    constexpr int count = RegInfo<S>::lanes < RegInfo<V>::lanes ? RegInfo<S>::lanes : RegInfo<V>::lanes;
    constexpr int stride = RegInfo<S>::mask_stride;
    const Index* idx = lanes(index);
    const Lane* from = lanes(srcReg);
    int64_t highest = -1;
    for (int i = 0; i < count; ++i) {
        if (bit(mask, i * stride) && int64_t(idx[i]) > highest) highest = int64_t(idx[i]);
    }
    if (highest < 0) return;
    auto* base = reinterpret_cast<Lane*>(
        access("Reg::Scatter", baseAddr, (highest + 1) * int64_t(sizeof(Lane)), true, int(sizeof(Lane)), "an element address"));
    for (int i = 0; i < count; ++i) {
        if (bit(mask, i * stride)) base[idx[i]] = from[i];
    }
}

}  // namespace Reg
}  // namespace AscendC

namespace canopy::kernel::ascendc::reg {

// A mask register in the UB: 32 bytes (DIST_NORM), 16 bytes each bit doubled (DIST_US), or 64 bytes
// of which every other bit is kept (DIST_DS).
template <AscendC::Reg::MaskDist dist>
inline void load_mask(Mask& mask, const void* address) {
    using AscendC::Reg::MaskDist;
    constexpr int bytes = dist == MaskDist::DIST_NORM ? 32 : dist == MaskDist::DIST_US ? 16 : 64;
    const std::byte* src = access("Reg::LoadAlign", address, bytes, false, bytes == 16 ? 16 : 32, "a MaskReg load");
    if constexpr (dist == MaskDist::DIST_NORM) {
        std::memcpy(mask.bits, src, 32);
    } else {
        Mask out{};
        for (int k = 0; k < vl_bytes; ++k) {
            const int from = dist == MaskDist::DIST_US ? k / 2 : 2 * k;
            set_bit(out, k, (uint8_t(src[from / 8]) >> (from % 8)) & 1u);
        }
        mask = out;
    }
}

// A mask register into the UB: 32 bytes (DIST_NORM), or every other bit in 16 bytes (DIST_PACK).
template <AscendC::Reg::MaskDist dist>
inline void store_mask(void* address, const Mask& mask) {
    constexpr int bytes = dist == AscendC::Reg::MaskDist::DIST_NORM ? 32 : 16;
    std::byte* dst = access("Reg::StoreAlign", address, bytes, true, bytes, "a MaskReg store");
    if constexpr (bytes == 32) {
        std::memcpy(dst, mask.bits, 32);
    } else {
        uint8_t packed[16] = {};
        for (int k = 0; k < vl_bytes / 2; ++k) packed[k / 8] |= uint8_t(bit(mask, 2 * k)) << (k % 8);
        std::memcpy(dst, packed, 16);
    }
}

}  // namespace canopy::kernel::ascendc::reg

namespace AscendC {
namespace Reg {

template <typename T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void LoadAlign(MaskReg& mask, __ubuf__ T* srcAddr, AddrReg offset) {
    canopy::kernel::ascendc::reg::load_mask<dist>(mask, srcAddr + offset.offset);
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void LoadAlign(MaskReg& mask, __ubuf__ T* srcAddr) {
    canopy::kernel::ascendc::reg::load_mask<dist>(mask, srcAddr);
}
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void LoadAlign(MaskReg& mask, __ubuf__ T*& srcAddr, int32_t offset) {
    canopy::kernel::ascendc::reg::load_mask<dist>(mask, srcAddr);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += offset;
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, MaskReg& mask, AddrReg offset) {
    canopy::kernel::ascendc::reg::store_mask<dist>(dstAddr + offset.offset, mask);
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, MaskReg& mask) {
    canopy::kernel::ascendc::reg::store_mask<dist>(dstAddr, mask);
}
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void StoreAlign(__ubuf__ T*& dstAddr, MaskReg& mask, int32_t offset) {
    canopy::kernel::ascendc::reg::store_mask<dist>(dstAddr, mask);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += offset;
}
// pstu: the mask's 32 bytes through the unaligned register, dstAddr advanced past them.
template <typename T>
__aicore__ inline void StoreUnAlign(__ubuf__ T*& dstAddr, MaskReg& mask, UnalignRegForStore& ureg) {
    using namespace canopy::kernel::ascendc::reg;
    store_unaligned("Reg::StoreUnAlign", ureg, reinterpret_cast<std::byte*>(dstAddr),
                    reinterpret_cast<const std::byte*>(mask.bits), 32);
    dstAddr += 32 / sizeof(T);
}

}  // namespace Reg
}  // namespace AscendC
