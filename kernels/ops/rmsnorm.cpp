// rmsnorm over the last axis of a [rows, columns] float matrix, in one block:
// y = x / sqrt(mean(x^2) + eps) * gamma. Mean squares come from ReduceSum; the reciprocal square
// roots of all rows are taken in one vector Rsqrt.
#include "reference_ops.h"

namespace {

class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, const NormTiling& tiling) {
        rows_ = tiling.rows;
        columns_ = tiling.columns;
        epsilon_ = tiling.epsilon;
        xGm_.SetGlobalBuffer((__gm__ float*)x, uint64_t(rows_) * columns_);
        gammaGm_.SetGlobalBuffer((__gm__ float*)gamma, columns_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, uint64_t(rows_) * columns_);
        pipe_.InitBuffer(inQueueX_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(inQueueGamma_, 1, columns_ * sizeof(float));
        pipe_.InitBuffer(outQueueY_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(squareBuf_, columns_ * sizeof(float));
        pipe_.InitBuffer(rstdBuf_, rows_ * sizeof(float));
        pipe_.InitBuffer(reduceBuf_, AscendC::ONE_BLK_SIZE);
        pipe_.InitBuffer(workBuf_, AscendC::ONE_BLK_SIZE);
    }

    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> xLocal = inQueueX_.AllocTensor<float>();
        AscendC::LocalTensor<float> gammaLocal = inQueueGamma_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_, rows_ * columns_);
        AscendC::DataCopy(gammaLocal, gammaGm_, columns_);
        inQueueX_.EnQue(xLocal);
        inQueueGamma_.EnQue(gammaLocal);

        xLocal = inQueueX_.DeQue<float>();
        gammaLocal = inQueueGamma_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY_.AllocTensor<float>();
        AscendC::LocalTensor<float> square = squareBuf_.Get<float>();
        AscendC::LocalTensor<float> rstd = rstdBuf_.Get<float>();
        AscendC::LocalTensor<float> reduced = reduceBuf_.Get<float>();
        const float inverseColumns = 1.0f / static_cast<float>(columns_);
        for (uint32_t row = 0; row < rows_; row++) {
            AscendC::Mul(square, xLocal[row * columns_], xLocal[row * columns_], columns_);
            AscendC::ReduceSum(reduced, square, workBuf_.Get<float>(), columns_);
            const int32_t eventId = pipe_.FetchEventID(AscendC::HardEvent::V_S);
            AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
            rstd.SetValue(row, reduced.GetValue(0) * inverseColumns + epsilon_);
        }
        // The scalar writes reach the UB before the vector unit reads them, and its results before
        // the scalar unit reads them back.
        const int32_t written = pipe_.FetchEventID(AscendC::HardEvent::S_V);
        AscendC::SetFlag<AscendC::HardEvent::S_V>(written);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(written);
        AscendC::Rsqrt(rstd, rstd, rows_);
        const int32_t rooted = pipe_.FetchEventID(AscendC::HardEvent::V_S);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(rooted);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(rooted);
        for (uint32_t row = 0; row < rows_; row++) {
            AscendC::LocalTensor<float> out = yLocal[row * columns_];
            AscendC::Muls(out, xLocal[row * columns_], rstd.GetValue(row), columns_);
            AscendC::Mul(out, out, gammaLocal, columns_);
        }
        outQueueY_.EnQue(yLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueGamma_.FreeTensor(gammaLocal);

        yLocal = outQueueY_.DeQue<float>();
        AscendC::DataCopy(yGm_, yLocal, rows_ * columns_);
        outQueueY_.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueGamma_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> squareBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rstdBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> reduceBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf_;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> gammaGm_;
    AscendC::GlobalTensor<float> yGm_;
    uint32_t rows_ = 0;
    uint32_t columns_ = 0;
    float epsilon_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void rmsnorm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, NormTiling tiling) {
    KernelRmsNorm op;
    op.Init(x, gamma, y, tiling);
    op.Process();
}
