// add_broadcast: z[r, :] = x[r, :] + y[0, :] on int8 rows of `columns` bytes, a length that is not a
// multiple of 32. Rows come in and go out with DataCopyPad (the UB row is padded to 32 bytes); the
// vector unit has no int8 Add, so each row is widened to half, added, and narrowed back (the sums
// of the operator's inputs are exact in half). Rows are spread over the blocks; the first
// rows % numBlocks blocks take one row more (the "former" and "tail" blocks of the samples).
#include "reference_ops.h"

namespace {

constexpr int32_t BUFFER_NUM = 2;

class KernelAddBroadcast {
public:
    __aicore__ inline KernelAddBroadcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddBroadcastTiling& tiling) {
        const uint32_t blocks = AscendC::GetBlockNum();
        const uint32_t index = AscendC::GetBlockIdx();
        const uint32_t baseRows = tiling.rows / blocks;
        const uint32_t formerBlocks = tiling.rows % blocks;
        rows_ = baseRows + (index < formerBlocks ? 1 : 0);
        const uint32_t firstRow = index * baseRows + (index < formerBlocks ? index : formerBlocks);
        columns_ = tiling.columns;
        alignedColumns_ = (columns_ + ALIGN_ELEMENTS - 1) / ALIGN_ELEMENTS * ALIGN_ELEMENTS;
        xGm_.SetGlobalBuffer((__gm__ int8_t*)x + uint64_t(firstRow) * columns_, uint64_t(rows_) * columns_);
        yGm_.SetGlobalBuffer((__gm__ int8_t*)y, columns_);
        zGm_.SetGlobalBuffer((__gm__ int8_t*)z + uint64_t(firstRow) * columns_, uint64_t(rows_) * columns_);
        pipe_.InitBuffer(inQueueX_, BUFFER_NUM, alignedColumns_ * sizeof(int8_t));
        pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, alignedColumns_ * sizeof(int8_t));
        pipe_.InitBuffer(yBuf_, alignedColumns_ * sizeof(int8_t));
        pipe_.InitBuffer(yHalfBuf_, alignedColumns_ * sizeof(half));
        pipe_.InitBuffer(xHalfBuf_, alignedColumns_ * sizeof(half));
    }

    __aicore__ inline void Process() {
        LoadBroadcastRow();
        for (uint32_t row = 0; row < rows_; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    static constexpr uint32_t ALIGN_ELEMENTS = AscendC::ONE_BLK_SIZE / sizeof(int8_t);

    __aicore__ inline AscendC::DataCopyExtParams RowCopy() const {
        return AscendC::DataCopyExtParams(1, columns_ * sizeof(int8_t), 0, 0, 0);
    }

    __aicore__ inline AscendC::DataCopyPadExtParams<int8_t> RowPad() const {
        return AscendC::DataCopyPadExtParams<int8_t>(true, 0, static_cast<uint8_t>(alignedColumns_ - columns_), 0);
    }

    // y is the same for every row: widened to half once.
    __aicore__ inline void LoadBroadcastRow() {
        AscendC::LocalTensor<int8_t> yLocal = yBuf_.Get<int8_t>();
        AscendC::DataCopyPad(yLocal, yGm_, RowCopy(), RowPad());
        const int32_t eventId = pipe_.FetchEventID(AscendC::HardEvent::MTE2_V);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(eventId);
        AscendC::Cast(yHalfBuf_.Get<half>(), yLocal, AscendC::RoundMode::CAST_NONE, alignedColumns_);
    }

    __aicore__ inline void CopyIn(uint32_t row) {
        AscendC::LocalTensor<int8_t> xLocal = inQueueX_.AllocTensor<int8_t>();
        AscendC::DataCopyPad(xLocal, xGm_[uint64_t(row) * columns_], RowCopy(), RowPad());
        inQueueX_.EnQue(xLocal);
    }

    __aicore__ inline void Compute() {
        AscendC::LocalTensor<int8_t> xLocal = inQueueX_.DeQue<int8_t>();
        AscendC::LocalTensor<int8_t> zLocal = outQueueZ_.AllocTensor<int8_t>();
        AscendC::LocalTensor<half> xHalf = xHalfBuf_.Get<half>();
        AscendC::Cast(xHalf, xLocal, AscendC::RoundMode::CAST_NONE, alignedColumns_);
        AscendC::Add(xHalf, xHalf, yHalfBuf_.Get<half>(), alignedColumns_);
        AscendC::Cast(zLocal, xHalf, AscendC::RoundMode::CAST_NONE, alignedColumns_);
        outQueueZ_.EnQue(zLocal);
        inQueueX_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row) {
        AscendC::LocalTensor<int8_t> zLocal = outQueueZ_.DeQue<int8_t>();
        AscendC::DataCopyPad(zGm_[uint64_t(row) * columns_], zLocal, RowCopy());
        outQueueZ_.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> yBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> yHalfBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xHalfBuf_;
    AscendC::GlobalTensor<int8_t> xGm_;
    AscendC::GlobalTensor<int8_t> yGm_;
    AscendC::GlobalTensor<int8_t> zGm_;
    uint32_t rows_ = 0;
    uint32_t columns_ = 0;
    uint32_t alignedColumns_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void add_broadcast_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                           AddBroadcastTiling tiling) {
    KernelAddBroadcast op;
    op.Init(x, y, z, tiling);
    op.Process();
}
