// layernorm over the last axis of a [rows, columns] float matrix (rows = B * S, columns = H), in one
// block: y = (x - mean) / sqrt(var + eps) * gamma + beta, with the population variance. Row means
// and variances come from ReduceSum; the reciprocal square roots of all rows are taken in one
// vector Rsqrt.
#include "reference_ops.h"

namespace {

class KernelLayerNorm {
public:
    __aicore__ inline KernelLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const NormTiling& tiling) {
        rows_ = tiling.rows;
        columns_ = tiling.columns;
        epsilon_ = tiling.epsilon;
        xGm_.SetGlobalBuffer((__gm__ float*)x, uint64_t(rows_) * columns_);
        gammaGm_.SetGlobalBuffer((__gm__ float*)gamma, columns_);
        betaGm_.SetGlobalBuffer((__gm__ float*)beta, columns_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, uint64_t(rows_) * columns_);
        pipe_.InitBuffer(inQueueX_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(inQueueGamma_, 1, columns_ * sizeof(float));
        pipe_.InitBuffer(inQueueBeta_, 1, columns_ * sizeof(float));
        pipe_.InitBuffer(outQueueY_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(squareBuf_, columns_ * sizeof(float));
        pipe_.InitBuffer(rstdBuf_, rows_ * sizeof(float));
        pipe_.InitBuffer(reduceBuf_, AscendC::ONE_BLK_SIZE);
        pipe_.InitBuffer(workBuf_, AscendC::ONE_BLK_SIZE);
    }

    __aicore__ inline void Process() {
        CopyIn();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn() {
        AscendC::LocalTensor<float> xLocal = inQueueX_.AllocTensor<float>();
        AscendC::LocalTensor<float> gammaLocal = inQueueGamma_.AllocTensor<float>();
        AscendC::LocalTensor<float> betaLocal = inQueueBeta_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_, rows_ * columns_);
        AscendC::DataCopy(gammaLocal, gammaGm_, columns_);
        AscendC::DataCopy(betaLocal, betaGm_, columns_);
        inQueueX_.EnQue(xLocal);
        inQueueGamma_.EnQue(gammaLocal);
        inQueueBeta_.EnQue(betaLocal);
    }

    __aicore__ inline void Compute() {
        AscendC::LocalTensor<float> xLocal = inQueueX_.DeQue<float>();
        AscendC::LocalTensor<float> gammaLocal = inQueueGamma_.DeQue<float>();
        AscendC::LocalTensor<float> betaLocal = inQueueBeta_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY_.AllocTensor<float>();
        AscendC::LocalTensor<float> square = squareBuf_.Get<float>();
        AscendC::LocalTensor<float> rstd = rstdBuf_.Get<float>();
        const float inverseColumns = 1.0f / static_cast<float>(columns_);

        // Centre each row and keep var + eps for it.
        for (uint32_t row = 0; row < rows_; row++) {
            AscendC::LocalTensor<float> centred = yLocal[row * columns_];
            const float mean = RowSum(xLocal[row * columns_]) * inverseColumns;
            AscendC::Adds(centred, xLocal[row * columns_], -mean, columns_);
            AscendC::Mul(square, centred, centred, columns_);
            rstd.SetValue(row, RowSum(square) * inverseColumns + epsilon_);
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
            AscendC::Muls(out, out, rstd.GetValue(row), columns_);
            AscendC::Mul(out, out, gammaLocal, columns_);
            AscendC::Add(out, out, betaLocal, columns_);
        }
        outQueueY_.EnQue(yLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueGamma_.FreeTensor(gammaLocal);
        inQueueBeta_.FreeTensor(betaLocal);
    }

    __aicore__ inline float RowSum(const AscendC::LocalTensor<float>& row) {
        AscendC::LocalTensor<float> reduced = reduceBuf_.Get<float>();
        AscendC::ReduceSum(reduced, row, workBuf_.Get<float>(), columns_);
        const int32_t eventId = pipe_.FetchEventID(AscendC::HardEvent::V_S);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
        return reduced.GetValue(0);
    }

    __aicore__ inline void CopyOut() {
        AscendC::LocalTensor<float> yLocal = outQueueY_.DeQue<float>();
        AscendC::DataCopy(yGm_, yLocal, rows_ * columns_);
        outQueueY_.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueGamma_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueBeta_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> squareBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rstdBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> reduceBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf_;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> gammaGm_;
    AscendC::GlobalTensor<float> betaGm_;
    AscendC::GlobalTensor<float> yGm_;
    uint32_t rows_ = 0;
    uint32_t columns_ = 0;
    float epsilon_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void layernorm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                       NormTiling tiling) {
    KernelLayerNorm op;
    op.Init(x, gamma, beta, y, tiling);
    op.Process();
}
