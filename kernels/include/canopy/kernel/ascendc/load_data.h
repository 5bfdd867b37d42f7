#pragma once
// The MTE1 moves from L1 into the cube's operand buffers: LoadData (2D fractal copies, optionally
// transposing each 16 x 16 fractal), LoadDataWithTranspose (square blocks transposed whole), and the
// img2col LoadData (LoadData3DParamsV2 / V2Pro) with its registers SetFmatrix,
// SetLoadDataPaddingValue, SetLoadDataBoundary and SetLoadDataRepeat. Each instruction is one
// function in canopy::kernel::ascendc (load_2d, load_2d_transpose, load_3d) that every overload
// goes through; layouts are described in cube_types.h.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/cube_types.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

template <typename T>
inline void require_l1_to_l0(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                             const char* api) {
    require_memory(src, AscendC::Hardware::L1, api, "src");
    if (dst.memory() != AscendC::Hardware::L0A && dst.memory() != AscendC::Hardware::L0B) [[unlikely]] {
        fail_misuse(api, "dst is a ", AscendC::PositionName(dst.position()), " tensor (",
                    AscendC::HardwareName(dst.memory()), "); this load fills A2 (L0A) or B2 (L0B)");
    }
    require_alignment(dst, kFractalBytes, api, "dst");
    require_alignment(src, 32, api, "src");
}

// The source unit (fractal or square) index of repeat `repeat`: addrMode 1 walks backwards.
inline int64_t source_unit(int64_t start, int64_t stride, uint8_t addr_mode, int64_t repeat) {
    return addr_mode == 0 ? start + repeat * stride : start - repeat * stride;
}

template <typename T>
inline void require_source_units(const AscendC::LocalTensor<T>& src, int64_t start, int64_t stride,
                                 uint8_t addr_mode, int64_t repeats, int64_t unit_elements, const char* api) {
    const int64_t last = source_unit(start, stride, addr_mode, repeats - 1);
    if (last < 0) [[unlikely]] {
        fail_misuse(api, "addrMode 1 walks back past the start of src: startIndex ", start, ", srcStride ", stride,
                    ", ", repeats, " repeats");
    }
    require_elements(src, (std::max(start, last) + 1) * unit_elements, api, "src (units read)");
}

// Bytes of src from its start to the end of the last unit read.
template <typename T>
inline uint64_t source_extent(int64_t start, int64_t stride, uint8_t addr_mode, int64_t repeats,
                              int64_t unit_elements, const AscendC::LocalTensor<T>&) {
    const int64_t last = source_unit(start, stride, addr_mode, repeats - 1);
    return bytes_of<T>(uint64_t(std::max(start, last) + 1) * uint64_t(unit_elements));
}

// LoadData with LoadData2DParams: `repeatTimes` 512-byte fractals from L1 to L0A / L0B.
template <typename T>
inline void load_2d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LoadData2DParams& p) {
    const char* api = "LoadData";
    if constexpr (packs_nibbles<T>) {
        // int4 fractals (16 x 64 elements) are 512 bytes like every other: moved whole, as bytes.
        if (p.ifTranspose) [[unlikely]] {
            fail_misuse(api, "ifTranspose transposes 16 x 16 fractals of 2-byte elements; int4b_t has no "
                             "transposing 2D load (LoadDataWithTranspose moves int4 into B2)");
        }
        require_l1_to_l0(dst, src, api);
        load_2d(dst.template ReinterpretCast<int8_t>(), src.template ReinterpretCast<int8_t>(), p);
        return;
    }
    require_l1_to_l0(dst, src, api);
    if (p.repeatTimes == 0) return;
    if (p.ifTranspose && sizeof(T) != 2) [[unlikely]] {
        fail_misuse(api, "ifTranspose transposes 16 x 16 fractals of 2-byte elements; these are ", sizeof(T),
                    " bytes (LoadDataWithTranspose handles the others)");
    }
    constexpr int64_t fe = fractal_elements<T>;
    require_source_units(src, p.startIndex, p.srcStride, p.addrMode, p.repeatTimes, fe, api);
    const int64_t dst_elements = ((p.repeatTimes - 1) * (int64_t(p.dstGap) + 1) + 1) * fe;
    require_elements(dst, dst_elements, api, "dst (fractals written)");
    issue(Pipe::MTE1, api, reads(src, source_extent(p.startIndex, p.srcStride, p.addrMode, p.repeatTimes, fe, src)),
          writes(dst, uint64_t(dst_elements) * sizeof(T)));
    for (int64_t r = 0; r < p.repeatTimes; ++r) {
        const T* from = src.landed_address() + source_unit(p.startIndex, p.srcStride, p.addrMode, r) * fe;
        T* to = dst.landed_address() + r * (int64_t(p.dstGap) + 1) * fe;
        if constexpr (sizeof(T) == 2) {
            if (p.ifTranspose) {
                for (int row = 0; row < 16; ++row) {
                    for (int column = 0; column < 16; ++column) to[row * 16 + column] = from[column * 16 + row];
                }
                continue;
            }
        }
        std::memcpy(static_cast<void*>(to), from, kFractalBytes);
    }
}

// LoadData with LoadData2DParamsV2 (the 950's 2D load, dav_3510 load_cbuf_to_ca / _cb): the source
// in L1 is Nz (columns of fractals of 16 rows x C0, each column |srcStride| fractals after the one
// before); the window of mStep x kStep fractals at fractal (mStartPosition, kStartPosition) goes to
// L0A / L0B as Nz with columns dstStride fractals apart, or, with ifTranspose, the window's
// transpose does (so mStep * 16 must fill whole C0 columns and kStep * C0 whole 16-row blocks: the
// documented "b8: mStep a multiple of 2, b32: kStep a multiple of 2").
template <typename T>
inline void load_2d_v2(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LoadData2DParamsV2& p) {
    const char* api = "LoadData(LoadData2DParamsV2)";
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "LoadData moves 1-, 2- or 4-byte elements");
    if constexpr (packs_nibbles<T>) {
        fail_misuse(api, "4-bit elements (64 to a fractal row) are not modelled by Canopy in this load");
    }
    require_l1_to_l0(dst, src, api);
    require_alignment(dst, kFractalBytes, api, "dst");
    require_alignment(src, 32, api, "src");
    if (p.mStep == 0 || p.kStep == 0) return;  // a NOP, as documented
    constexpr int64_t c0 = c0_of<T>;
    constexpr int64_t fe = fractal_elements<T>;
    const int64_t rows = int64_t(p.mStep) * 16, columns = int64_t(p.kStep) * c0;
    if (p.ifTranspose && (rows % c0 != 0 || columns % 16 != 0)) [[unlikely]] {
        fail_misuse(api, "ifTranspose with mStep ", p.mStep, " and kStep ", p.kStep, " for ", sizeof(T),
                    "-byte elements: the transposed window (", columns, " x ", rows,
                    ") must fill whole 16 x ", c0, " fractals");
    }
    const int64_t src_stride = p.srcStride < 0 ? -int64_t(p.srcStride) : int64_t(p.srcStride);
    auto src_at = [&](int64_t r, int64_t c) {
        return ((c / c0) * src_stride + r / 16) * fe + (r % 16) * c0 + c % c0;
    };
    auto dst_at = [&](int64_t i, int64_t j) {  // element (i, j) of the Nz destination
        return ((j / c0) * int64_t(p.dstStride) + i / 16) * fe + (i % 16) * c0 + j % c0;
    };
    const int64_t r0 = int64_t(p.mStartPosition) * 16, k0 = int64_t(p.kStartPosition) * c0;
    const int64_t src_elements = src_at(r0 + rows - 1, k0 + columns - 1) + 1;
    const int64_t dst_elements = p.ifTranspose ? dst_at(columns - 1, rows - 1) + 1 : dst_at(rows - 1, columns - 1) + 1;
    require_elements(src, src_elements, api, "src (the fractals read)");
    // A window of whole fractals may write past a tensor sized for the matrix (CANN's samples size
    // them so); it must stay inside the buffer.
    require_in_buffer(dst, dst_elements, api, "dst (the fractals written)");
    issue(Pipe::MTE1, api, reads(src, uint64_t(src_elements) * sizeof(T)),
          writes(dst, uint64_t(dst_elements) * sizeof(T)));
    const T* from = src.landed_address();
    T* to = dst.landed_address();
    for (int64_t c = 0; c < columns; ++c) {
        for (int64_t r = 0; r < rows; ++r) {
            to[p.ifTranspose ? dst_at(c, r) : dst_at(r, c)] = from[src_at(r0 + r, k0 + c)];
        }
    }
}

// LoadDataWithTranspose: each repeat transposes one square. int4: four 16 x 64 fractals stacked
// into a 64 x 64 square, split the same way after the transpose (into B2 only: the A2 has no int4
// transpose into L0A); 1-byte elements: two 16 x 32 fractals stacked into a 32 x 32 square, split
// the same way after the transpose; 2-byte: one 16 x 16 fractal; 4-byte: two 16 x 8 fractals side
// by side make the 16 x 16 square, the transpose's left and right halves the two destination
// fractals. The destination fractals of a repeat are dstFracGap fractals apart, repeats dstGap
// fractals apart.
template <typename T>
inline void load_2d_transpose(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                              const AscendC::LoadData2dTransposeParams& p) {
    const char* api = "LoadDataWithTranspose";
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "LoadDataWithTranspose moves int4, 1-, 2- or 4-byte elements");
    require_l1_to_l0(dst, src, api);
    if constexpr (packs_nibbles<T>) {
        if (dst.memory() != AscendC::Hardware::L0B) [[unlikely]] {
            fail_misuse(api, "the A2 transposes int4b_t only into B2 (L0B); dst is a ",
                        AscendC::PositionName(dst.position()), " tensor");
        }
    }
    if (p.repeatTimes == 0) return;
    constexpr int64_t fe = fractal_elements<T>;
    constexpr int64_t side = packs_nibbles<T> ? 64 : sizeof(T) == 1 ? 32 : 16;
    constexpr int64_t square = side * side;
    constexpr int64_t fractals = square / fe;  // per square: 2, 1, 2
    require_source_units(src, p.startIndex, p.srcStride, p.addrMode, p.repeatTimes, square, api);
    if constexpr (packs_nibbles<T>) {
        const int64_t dst_fractals =
            (p.repeatTimes - 1) * (int64_t(p.dstGap) + 1) + (fractals - 1) * (int64_t(p.dstFracGap) + 1) + 1;
        require_elements(dst, dst_fractals * fe, api, "dst (fractals written)");
        issue(Pipe::MTE1, api,
              reads(src, source_extent(p.startIndex, p.srcStride, p.addrMode, p.repeatTimes, square, src)),
              writes(dst, uint64_t(dst_fractals) * kFractalBytes));
        const auto* in = reinterpret_cast<const std::byte*>(src.landed_address());
        auto* out = reinterpret_cast<std::byte*>(dst.landed_address());
        for (int64_t r = 0; r < p.repeatTimes; ++r) {
            const int64_t from = source_unit(p.startIndex, p.srcStride, p.addrMode, r) * square;  // elements
            const int64_t first = r * (int64_t(p.dstGap) + 1) * fe;
            for (int64_t row = 0; row < side; ++row) {
                const int64_t to = first + (row / 16) * (int64_t(p.dstFracGap) + 1) * fe + (row % 16) * side;
                for (int64_t column = 0; column < side; ++column) {
                    set_nibble(out, to + column, nibble_at(in, from + column * side + row));
                }
            }
        }
        return;
    }
    const int64_t dst_fractals =
        (p.repeatTimes - 1) * (int64_t(p.dstGap) + 1) + (fractals - 1) * (int64_t(p.dstFracGap) + 1) + 1;
    require_elements(dst, dst_fractals * fe, api, "dst (fractals written)");
    issue(Pipe::MTE1, api, reads(src, source_extent(p.startIndex, p.srcStride, p.addrMode, p.repeatTimes, square, src)),
          writes(dst, uint64_t(dst_fractals) * kFractalBytes));
    for (int64_t r = 0; r < p.repeatTimes; ++r) {
        const T* from = src.landed_address() + source_unit(p.startIndex, p.srcStride, p.addrMode, r) * square;
        T* first = dst.landed_address() + r * (int64_t(p.dstGap) + 1) * fe;
        T* second = first + (int64_t(p.dstFracGap) + 1) * fe;
        if constexpr (sizeof(T) == 4) {
            const T* left = from;          // square columns 0..7, 16 x 8 row-major
            const T* right = from + fe;    // square columns 8..15
            auto square_at = [&](int64_t row, int64_t column) {
                return column < 8 ? left[row * 8 + column] : right[row * 8 + column - 8];
            };
            for (int64_t row = 0; row < 16; ++row) {
                for (int64_t column = 0; column < 8; ++column) {
                    first[row * 8 + column] = square_at(column, row);
                    second[row * 8 + column] = square_at(column + 8, row);
                }
            }
        } else {
            for (int64_t row = 0; row < side; ++row) {
                T* to = row < 16 ? first + row * side : second + (row - 16) * side;
                for (int64_t column = 0; column < side; ++column) to[column] = from[column * side + row];
            }
        }
    }
}

// The img2col load, its settings resolved (from the parameters or from the registers).
template <typename T>
struct Img2col {
    uint16_t l1H, l1W;
    uint8_t padList[AscendC::PAD_SIZE];
    T padValue;
    uint16_t channelSize, kExtension, mExtension, kStartPt, mStartPt;
    uint32_t strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH;
    bool enTranspose;
    // The 950: fractals between the output's columns of fractals (the repeat register's dstStride).
    uint16_t dstStride;
};

// LoadData (img2col): the feature map in L1 is NC1HWC0 (C1 = channelSize / C0 planes of l1H x l1W
// rows of C0 channels). Its img2col matrix has one row per output position (ho, wo) and one column
// per (c1, kh, kw, c0); the instruction moves the mExtension x kExtension window at (mStartPt,
// kStartPt) of it into L0A in Zz order (transposed first if enTranspose) or into L0B in Zn order.
// On the 950 (dav_3510 SetLoadDataRepeatStride / img2colv2_cbuf_to_ca / _cb) either destination
// receives the window (transposed first if enTranspose) as Nz: columns of 16-row fractals, each
// column dstStride fractals after the one before. Positions outside the padded feature map read the
// padding value.
template <typename T>
inline void load_3d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Img2col<T>& g) {
    const char* api = "LoadData(img2col)";
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "LoadData moves 1-, 2- or 4-byte elements");
    require_l1_to_l0(dst, src, api);
    if constexpr (packs_nibbles<T>) {
        // C0 is 64 int4 elements, 32 bytes: with the channel counts in bytes this is the int8 load
        // over the same memory, every column pair of the img2col matrix one byte.
        if (dst.memory() != AscendC::Hardware::L0A || g.enTranspose) [[unlikely]] {
            fail_misuse(api, "the A2 loads int4b_t only into L0A and without enTranspose");
        }
        if (g.kExtension % 2 != 0 || g.channelSize % 2 != 0) [[unlikely]] {
            fail_misuse(api, "kExtension ", g.kExtension, " and channelSize ", g.channelSize,
                        " of int4b_t elements must be even (whole bytes)");
        }
        Img2col<int8_t> bytes{};
        bytes.l1H = g.l1H;
        bytes.l1W = g.l1W;
        std::copy(g.padList, g.padList + AscendC::PAD_SIZE, bytes.padList);
        const auto nibble = uint8_t(int32_t(g.padValue) & 0xF);
        bytes.padValue = int8_t(uint8_t(nibble | (nibble << 4)));
        bytes.channelSize = uint16_t(g.channelSize / 2);
        bytes.kExtension = uint16_t(g.kExtension / 2);
        bytes.mExtension = g.mExtension;
        bytes.kStartPt = uint16_t(g.kStartPt / 2);
        bytes.mStartPt = g.mStartPt;
        bytes.strideW = g.strideW;
        bytes.strideH = g.strideH;
        bytes.filterW = g.filterW;
        bytes.filterH = g.filterH;
        bytes.dilationFilterW = g.dilationFilterW;
        bytes.dilationFilterH = g.dilationFilterH;
        bytes.enTranspose = false;
        bytes.dstStride = g.dstStride;
        if (g.kStartPt % c0_of<T> != 0) [[unlikely]] {
            fail_misuse(api, "kStartPt ", g.kStartPt, " is not a multiple of C0 = ", c0_of<T>);
        }
        if (g.channelSize % c0_of<T> != 0) [[unlikely]] {
            fail_misuse(api, "channelSize ", g.channelSize, " is not a multiple of C0 = ", c0_of<T>,
                        " (the small-channel layouts are not modelled by Canopy)");
        }
        load_3d(dst.template ReinterpretCast<int8_t>(), src.template ReinterpretCast<int8_t>(), bytes);
        return;
    }
    if (g.l1H == 0 || g.l1W == 0 || g.channelSize == 0 || g.kExtension == 0 || g.mExtension == 0 ||
        g.filterW == 0 || g.filterH == 0) {
        return;  // a NOP on the A2
    }
    CubeRegisters& registers = cube_registers();
    if (registers.load3d_repeat.repeatTime == 0) return;
    if (registers.load3d_repeat.repeatTime != 1) [[unlikely]] {
        fail_misuse(api, "SetLoadDataRepeat repeatTime ", int(registers.load3d_repeat.repeatTime),
                    " > 1 is not modelled by Canopy");
    }
    const bool to_l0b = dst.memory() == AscendC::Hardware::L0B;
    constexpr bool nz_output = __NPU_ARCH__ == 3510;
    if (!nz_output && (to_l0b || g.enTranspose) && sizeof(T) == 1) [[unlikely]] {
        fail_misuse(api, "the A2 loads 1-byte elements only into L0A and without enTranspose");
    }
    constexpr int64_t c0 = c0_of<T>;
    constexpr int64_t fe = fractal_elements<T>;
    if (g.channelSize % c0 != 0) [[unlikely]] {
        fail_misuse(api, "channelSize ", g.channelSize, " is not a multiple of C0 = ", c0,
                    " (the small-channel layouts are not modelled by Canopy)");
    }
    if (g.kStartPt % c0 != 0) [[unlikely]] {
        fail_misuse(api, "kStartPt ", g.kStartPt, " is not a multiple of C0 = ", c0);
    }
    if (g.strideW == 0 || g.strideH == 0 || g.dilationFilterW == 0 || g.dilationFilterH == 0) [[unlikely]] {
        fail_misuse(api, "strides and dilations must be at least 1 (strideW ", g.strideW, ", strideH ", g.strideH,
                    ", dilationFilterW ", g.dilationFilterW, ", dilationFilterH ", g.dilationFilterH, ")");
    }
    const int64_t c1 = g.channelSize / c0;
    const int64_t height = g.l1H, width = g.l1W;
    const int64_t pad_left = g.padList[0], pad_right = g.padList[1], pad_top = g.padList[2],
                  pad_bottom = g.padList[3];
    const int64_t reach_h = (int64_t(g.filterH) - 1) * g.dilationFilterH + 1;
    const int64_t reach_w = (int64_t(g.filterW) - 1) * g.dilationFilterW + 1;
    const int64_t out_h = (height + pad_top + pad_bottom - reach_h) / g.strideH + 1;
    const int64_t out_w = (width + pad_left + pad_right - reach_w) / g.strideW + 1;
    if (height + pad_top + pad_bottom < reach_h || width + pad_left + pad_right < reach_w) [[unlikely]] {
        fail_misuse(api, "the filter (", reach_h, " x ", reach_w, " dilated) is larger than the padded feature map (",
                    height + pad_top + pad_bottom, " x ", width + pad_left + pad_right, ")");
    }
    const int64_t columns = c1 * g.filterH * g.filterW * c0;
    const int64_t rows = ceil_div(out_h * out_w, 16) * 16;
    if (int64_t(g.kStartPt) + g.kExtension > columns || int64_t(g.mStartPt) + g.mExtension > rows) [[unlikely]] {
        fail_misuse(api, "the window [", g.mStartPt, ", ", g.mStartPt + g.mExtension, ") x [", g.kStartPt, ", ",
                    g.kStartPt + g.kExtension, ") is outside the ", out_h * out_w, " x ", columns,
                    " img2col matrix");
    }
    // Source reads: either within src, or, with SetLoadDataBoundary, wrapped at the boundary of L1.
    const LocalMemory l1 = local_memory(AscendC::Hardware::L1);
    const uint64_t boundary = registers.load3d_boundary;
    const int64_t src_offset = reinterpret_cast<const std::byte*>(src.landed_address()) - l1.base;
    if (boundary == 0) {
        require_elements(src, c1 * height * width * c0, api, "src (the NC1HWC0 feature map)");
    } else if (boundary > l1.bytes || uint64_t(src_offset) >= boundary) [[unlikely]] {
        fail_misuse(api, "src starts at L1 byte ", src_offset, ", outside the SetLoadDataBoundary boundary of ",
                    boundary, " bytes (L1 holds ", l1.bytes, ")");
    }
    const int64_t m_blocks = ceil_div(g.mExtension, to_l0b || g.enTranspose ? c0 : 16);
    const int64_t k_blocks = ceil_div(g.kExtension, to_l0b || g.enTranspose ? 16 : c0);
    if (nz_output) {
        // Each output column of fractals holds 16 rows of the (transposed) window; a stride below
        // that makes the columns overlap.
        const int64_t rows_out = g.enTranspose ? g.kExtension : g.mExtension;
        const int64_t columns_out = g.enTranspose ? g.mExtension : g.kExtension;
        if (ceil_div(columns_out, c0) > 1 && g.dstStride < ceil_div(rows_out, 16)) [[unlikely]] {
            fail_misuse(api, "dstStride ", g.dstStride, " fractals is below the ", ceil_div(rows_out, 16),
                        " fractals of a column of the ", rows_out, "-row output (set it with "
                        "SetLoadDataRepeatWithStride): its columns would overlap");
        }
    }
    auto offset_of = [&](int64_t m, int64_t k) -> int64_t {
        if (nz_output) {
            if (g.enTranspose) return ((m / c0) * g.dstStride + k / 16) * fe + (k % 16) * c0 + m % c0;
            return ((k / c0) * g.dstStride + m / 16) * fe + (m % 16) * c0 + k % c0;
        }
        if (to_l0b) {  // Zn: fractals of C0 window rows x 16 window columns, stored column by column
            return ((m / c0) * k_blocks + k / 16) * fe + (k % 16) * c0 + m % c0;
        }
        if (g.enTranspose) {  // Zz of the transposed window
            return ((k / 16) * m_blocks + m / c0) * fe + (k % 16) * c0 + m % c0;
        }
        return ((m / 16) * k_blocks + k / c0) * fe + (m % 16) * c0 + k % c0;  // Zz
    };
    // The last fractal of a block row may be partly outside the window (kExtension not a multiple of
    // the fractal's width); the hardware skips those elements but keeps the block rows' spacing, so
    // the write can pass the end of a tensor sized for the window (the samples size them so). It
    // must stay inside the buffer.
    const int64_t written = offset_of(g.mExtension - 1, g.kExtension - 1) + 1;
    require_in_buffer(dst, written, api, "dst (elements written)");
    const uint64_t read_bytes = boundary == 0 ? uint64_t(c1 * height * width * c0) * sizeof(T)
                                              : uint64_t(src.GetSize()) * sizeof(T);
    issue(Pipe::MTE1, api, reads(src, read_bytes), writes(dst, uint64_t(written) * sizeof(T)));

    auto element = [&](int64_t row, int64_t column) -> T {
        if (row >= out_h * out_w) return g.padValue;
        const int64_t ho = row / out_w, wo = row % out_w;
        const int64_t plane = column / (int64_t(g.filterH) * g.filterW * c0);
        const int64_t tap = column / c0 % (int64_t(g.filterH) * g.filterW);
        const int64_t channel = column % c0;
        const int64_t h = ho * g.strideH + tap / g.filterW * g.dilationFilterH - pad_top;
        const int64_t w = wo * g.strideW + tap % g.filterW * g.dilationFilterW - pad_left;
        if (h < 0 || h >= height || w < 0 || w >= width) return g.padValue;
        const int64_t index = ((plane * height + h) * width + w) * c0 + channel;
        if (boundary == 0) return src.landed_address()[index];
        const uint64_t byte = (uint64_t(src_offset) + uint64_t(index) * sizeof(T)) % boundary;
        T value;
        std::memcpy(static_cast<void*>(&value), l1.base + byte, sizeof(T));
        return value;
    };
    T* out = dst.landed_address();
    for (int64_t m = 0; m < g.mExtension; ++m) {
        for (int64_t k = 0; k < g.kExtension; ++k) out[offset_of(m, k)] = element(g.mStartPt + m, g.kStartPt + k);
    }
}

// LoadDataWithSparse: `repeatTimes` consecutive 512-byte fractals of the densified B from L1 to
// L0B, and with each its 128-byte fractal of 4:2 indices into the cube's index buffer.
template <typename T, typename U>
inline void load_2d_sparse(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const AscendC::LocalTensor<U>& idx, const AscendC::LoadData2DParams& p) {
    const char* api = "LoadDataWithSparse";
    static_assert(std::is_same_v<T, int8_t> && std::is_same_v<U, uint8_t>,
                  "LoadDataWithSparse moves int8_t weights with uint8_t indices");
    require_memory(src, AscendC::Hardware::L1, api, "src");
    require_memory(idx, AscendC::Hardware::L1, api, "idx");
    require_memory(dst, AscendC::Hardware::L0B, api, "dst");
    require_alignment(dst, kFractalBytes, api, "dst");
    require_alignment(src, 32, api, "src");
    require_alignment(idx, 32, api, "idx");
    if (p.repeatTimes == 0) return;
    constexpr int64_t index_bytes = kFractalBytes / 4;
    require_elements(src, (int64_t(p.startIndex) + p.repeatTimes) * int64_t(kFractalBytes), api, "src (fractals read)");
    require_elements(idx, (int64_t(p.startIndex) + p.repeatTimes) * index_bytes, api, "idx (index fractals read)");
    require_elements(dst, int64_t(p.repeatTimes) * int64_t(kFractalBytes), api, "dst (fractals written)");
    const uint64_t dst_offset =
        uint64_t(reinterpret_cast<const std::byte*>(dst.landed_address()) - local_memory(AscendC::Hardware::L0B).base);
    issue(Pipe::MTE1, api, reads(src, (uint64_t(p.startIndex) + p.repeatTimes) * kFractalBytes),
          reads(idx, (uint64_t(p.startIndex) + p.repeatTimes) * index_bytes),
          writes(dst, uint64_t(p.repeatTimes) * kFractalBytes));
    std::memcpy(dst.landed_address(), src.landed_address() + int64_t(p.startIndex) * int64_t(kFractalBytes),
                std::size_t(p.repeatTimes) * kFractalBytes);
    std::memcpy(cube_registers().sparse_index + dst_offset / 4,
                idx.landed_address() + int64_t(p.startIndex) * index_bytes,
                std::size_t(p.repeatTimes) * index_bytes);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T = int8_t, typename U = uint8_t>
__aicore__ inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LocalTensor<U>& idx, const LoadData2dParams& loadDataParam) {
    canopy::kernel::ascendc::load_2d_sparse(dst, src, idx, loadDataParam);
}

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& loadDataParams) {
    canopy::kernel::ascendc::load_2d(dst, src, loadDataParams);
}

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParamsV2& loadDataParams) {
#if __NPU_ARCH__ == 3510
    canopy::kernel::ascendc::load_2d_v2(dst, src, loadDataParams);
#else
    static_cast<void>(dst);
    static_cast<void>(src);
    static_cast<void>(loadDataParams);
    canopy::kernel::ascendc::fail_misuse("LoadData", "LoadData2DParamsV2 is the Ascend 950 (dav-3510) form; the "
                                                     "Atlas A2 (dav-2201) takes LoadData2DParams");
#endif
}

template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& loadDataParams) {
    canopy::kernel::ascendc::load_2d_transpose(dst, src, loadDataParams);
}

}  // namespace AscendC

namespace canopy::kernel::ascendc {
// The img2col settings of a LoadData3DParamsV2 load: from the parameters or, as the config says,
// from the FMATRIX and padding registers.
template <typename T, const AscendC::IsResetLoad3dConfig& defaultConfig, typename U>
inline Img2col<T> img2col_of(const AscendC::LoadData3DParamsV2<U>& p) {
    using namespace AscendC;
    const CubeRegisters& registers = cube_registers();
    Img2col<T> g{};
    if constexpr (defaultConfig.isSetFMatrix) {
        g.l1H = p.l1H;
        g.l1W = p.l1W;
        std::copy(p.padList, p.padList + PAD_SIZE, g.padList);
    } else {
        const FeatureMap& fmatrix = registers.fmatrix[p.fMatrixCtrl ? 1 : 0];
        g.l1H = fmatrix.l1H;
        g.l1W = fmatrix.l1W;
        std::copy(fmatrix.padList, fmatrix.padList + PAD_SIZE, g.padList);
    }
    g.padValue = defaultConfig.isSetPadding ? p.padValue.value : bits_as<T>(registers.load3d_pad_value);
    g.channelSize = p.channelSize;
    g.kExtension = p.kExtension;
    g.mExtension = p.mExtension;
    g.kStartPt = p.kStartPt;
    g.mStartPt = p.mStartPt;
    g.strideW = p.strideW;
    g.strideH = p.strideH;
    g.filterW = p.filterW + (p.filterSizeW ? 256u : 0u);
    g.filterH = p.filterH + (p.filterSizeH ? 256u : 0u);
    g.dilationFilterW = p.dilationFilterW;
    g.dilationFilterH = p.dilationFilterH;
    g.enTranspose = p.enTranspose;
    return g;
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2<U>& loadDataParams) {
    using namespace canopy::kernel::ascendc;
    Img2col<T> g = img2col_of<T, defaultConfig>(loadDataParams);
#if __NPU_ARCH__ == 3510
    // The 950's LoadData sets the repeat register's dstStride to the output's rows in fractals.
    cube_registers().load3d_dst_stride =
        uint16_t(ceil_div(loadDataParams.enTranspose ? loadDataParams.kExtension : loadDataParams.mExtension, 16));
#endif
    g.dstStride = cube_registers().load3d_dst_stride;
    load_3d(dst, src, g);
}

#if __NPU_ARCH__ == 3510
// The 950's img2col load with the output stride the program set with SetLoadDataRepeatWithStride.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void LoadDataWithStride(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LoadData3DParamsV2<U>& loadDataParams) {
    using namespace canopy::kernel::ascendc;
    Img2col<T> g = img2col_of<T, defaultConfig>(loadDataParams);
    g.dstStride = cube_registers().load3d_dst_stride;
    load_3d(dst, src, g);
}

// The repeat register with its output stride (the 950 only; the A2 has SetLoadDataRepeat).
__aicore__ inline void SetLoadDataRepeatWithStride(const LoadDataRepeatParamWithStride& repeatParams) {
    if (repeatParams.repeatMode > 1) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("SetLoadDataRepeatWithStride", "repeatMode ", int(repeatParams.repeatMode),
                                              " is not 0 (height) or 1 (width)");
    }
    canopy::kernel::ascendc::CubeRegisters& registers = canopy::kernel::ascendc::cube_registers();
    registers.load3d_repeat = LoadDataRepeatParam(repeatParams.repeatStride, repeatParams.repeatTime,
                                                  repeatParams.repeatMode);
    registers.load3d_dst_stride = repeatParams.dstStride;
}
#endif

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2Pro& loadDataParams) {
    using namespace canopy::kernel::ascendc;
    const LoadData3DParamsV2Pro& p = loadDataParams;
    const CubeRegisters& registers = cube_registers();
    const FeatureMap& fmatrix = registers.fmatrix[p.fMatrixCtrl ? 1 : 0];
    Img2col<T> g{};
    g.l1H = fmatrix.l1H;
    g.l1W = fmatrix.l1W;
    std::copy(fmatrix.padList, fmatrix.padList + PAD_SIZE, g.padList);
    g.padValue = bits_as<T>(registers.load3d_pad_value);
    g.channelSize = p.channelSize;
    g.mStartPt = uint16_t(p.extConfig >> 48);
    g.kStartPt = uint16_t(p.extConfig >> 32);
    g.mExtension = uint16_t(p.extConfig >> 16);
    g.kExtension = uint16_t(p.extConfig);
    g.dilationFilterH = uint8_t(p.filterConfig >> 40);
    g.dilationFilterW = uint8_t(p.filterConfig >> 32);
    g.filterH = uint8_t(p.filterConfig >> 24) + (p.filterSizeH ? 256u : 0u);
    g.filterW = uint8_t(p.filterConfig >> 16) + (p.filterSizeW ? 256u : 0u);
    g.strideH = uint8_t(p.filterConfig >> 8);
    g.strideW = uint8_t(p.filterConfig);
    g.enTranspose = p.enTranspose;
    g.dstStride = registers.load3d_dst_stride;
    load_3d(dst, src, g);
}

// The feature map the img2col loads read when their isSetFMatrix is false.
__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
    canopy::kernel::ascendc::FeatureMap& fmatrix =
        canopy::kernel::ascendc::cube_registers().fmatrix[fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0];
    fmatrix.l1H = l1H;
    fmatrix.l1W = l1W;
    std::copy(padList, padList + PAD_SIZE, fmatrix.padList);
}

// The dav-2201 form of SetFmatrix (dav_c220/kernel_operator_mm_impl.h): set_fmatrix, the left
// feature map, which the LoadData3D forms use when their isSetFMatrix is false.
__aicore__ inline void Load3DSetFMatrixCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[4]) {
    SetFmatrix(l1H, l1W, padList, FmatrixMode::FMATRIX_LEFT);
}

// The padding element the img2col loads use when their isSetPadding is false.
template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue) {
    uint64_t bits = 0;
    std::memcpy(&bits, &padValue, sizeof(T) < sizeof(bits) ? sizeof(T) : sizeof(bits));
    canopy::kernel::ascendc::cube_registers().load3d_pad_value = bits;
}

// L1 bytes the img2col loads address; reads past it wrap to the start of L1. 0 lifts the boundary.
__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue) {
    if constexpr (__NPU_ARCH__ == 3510) {
        // dav_3510 SetLoadDataBoundaryCal: "SetLoadDataBoundary is not supported on current device".
        canopy::kernel::ascendc::fail_misuse("SetLoadDataBoundary", "the Ascend 950 has no img2col boundary register "
                                             "(wrap the reads in the program, as CANN's set_loaddata_boundary sample does)");
    }
    if (boundaryValue != 0 && boundaryValue < 1024) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("SetLoadDataBoundary", "boundaryValue ", boundaryValue,
                                              " bytes is below the 1024-byte minimum (0 means no boundary)");
    }
    canopy::kernel::ascendc::cube_registers().load3d_boundary = boundaryValue;
}

__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
    if (repeatParams.repeatMode > 1) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("SetLoadDataRepeat", "repeatMode ", int(repeatParams.repeatMode),
                                              " is not 0 (height) or 1 (width)");
    }
    canopy::kernel::ascendc::cube_registers().load3d_repeat = repeatParams;
}

}  // namespace AscendC
