// gelu, tanh form, on `totalLength` floats split evenly over the blocks:
//   gelu(x) = 0.5 x (1 + tanh(u)),  u = sqrt(2 / pi) (x + 0.044715 x^3)
// computed as x / (1 + exp(-2u)), the same function without a tanh instruction (the vector unit has
// Exp and Div): 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)).
#include "reference_ops.h"

namespace {

constexpr float GELU_CUBIC = 0.044715f;
constexpr float MINUS_TWO_SQRT_TWO_OVER_PI = -1.5957691216057308f;  // -2 * sqrt(2 / pi)

class KernelGelu {
public:
    __aicore__ inline KernelGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength) {
        blockLength_ = totalLength / AscendC::GetBlockNum();
        const uint64_t blockOffset = uint64_t(blockLength_) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ float*)x + blockOffset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + blockOffset, blockLength_);
        pipe_.InitBuffer(inQueueX_, 1, blockLength_ * sizeof(float));
        pipe_.InitBuffer(outQueueY_, 1, blockLength_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, blockLength_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> xLocal = inQueueX_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_, blockLength_);
        inQueueX_.EnQue(xLocal);

        xLocal = inQueueX_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY_.AllocTensor<float>();
        AscendC::LocalTensor<float> t = tmpBuf_.Get<float>();
        AscendC::Mul(t, xLocal, xLocal, blockLength_);                 // x^2
        AscendC::Muls(t, t, GELU_CUBIC, blockLength_);                 // 0.044715 x^2
        AscendC::Adds(t, t, 1.0f, blockLength_);                       // 1 + 0.044715 x^2
        AscendC::Mul(t, t, xLocal, blockLength_);                      // x + 0.044715 x^3
        AscendC::Muls(t, t, MINUS_TWO_SQRT_TWO_OVER_PI, blockLength_);  // -2u
        AscendC::Exp(t, t, blockLength_);                              // exp(-2u)
        AscendC::Adds(t, t, 1.0f, blockLength_);                       // 1 + exp(-2u)
        AscendC::Div(yLocal, xLocal, t, blockLength_);                 // x / (1 + exp(-2u))
        outQueueY_.EnQue(yLocal);
        inQueueX_.FreeTensor(xLocal);

        yLocal = outQueueY_.DeQue<float>();
        AscendC::DataCopy(yGm_, yLocal, blockLength_);
        outQueueY_.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf_;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> yGm_;
    uint32_t blockLength_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength) {
    KernelGelu op;
    op.Init(x, y, totalLength);
    op.Process();
}
