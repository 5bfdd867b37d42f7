// Sort32 and MrgSort (sort.h): (score, index) pairs sorted by descending score, equal scores in
// their original order; merging of two and four queues, with repeats.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kScores = 128;  // four Sort32 repeats

// out[0, 256): the four sorted queues merged; out[256, 512): queues 1 and 2 merged, then 3 and 4.
extern "C" __global__ __aicore__ void sort_kernel(GM_ADDR scores_gm, GM_ADDR out_gm) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, (kScores * 2 + 2 * kScores * 2 + 2 * kScores * 2) * sizeof(float));
    AscendC::LocalTensor<float> scores = buffer.Get<float>();
    AscendC::LocalTensor<uint32_t> indices = scores[kScores].ReinterpretCast<uint32_t>();
    AscendC::LocalTensor<float> sorted = scores[2 * kScores];
    AscendC::LocalTensor<float> merged = scores[4 * kScores];
    load_tile(scores, scores_gm, kScores);
    AscendC::CreateVecIndex(indices.ReinterpretCast<int32_t>(), 0, kScores);
    AscendC::Sort32(sorted, scores, indices, kScores / 32);
    AscendC::MrgSort4Info params;
    for (auto& length : params.elementLengths) length = 32;
    params.validBit = 0b1111;
    params.repeatTimes = 1;
    AscendC::MrgSort(merged, {sorted[0], sorted[64], sorted[128], sorted[192]}, params);
    params.validBit = 0b11;
    AscendC::MrgSort(merged[256], {sorted[0], sorted[64], sorted[0], sorted[0]}, params);
    AscendC::MrgSort(merged[384], {sorted[128], sorted[192], sorted[0], sorted[0]}, params);
    store_tile(out_gm, merged, 4 * kScores);
}

struct Pair {
    float score;
    uint32_t index;
};

std::vector<Pair> sorted_pairs(const std::vector<float>& scores, uint32_t first, uint32_t count) {
    std::vector<Pair> pairs;
    for (uint32_t i = first; i < first + count; ++i) pairs.push_back({scores[i], i});
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.score > b.score; });
    return pairs;
}

}  // namespace

TEST_CASE("Sort32 sorts each 32 scores with their indices; MrgSort merges four and two queues") {
    Runtime rt;
    Stream stream;
    std::vector<float> scores(kScores);
    for (uint32_t i = 0; i < kScores; ++i) scores[i] = float((i * 53) % 17);  // many equal scores
    DeviceArray<float> in(scores), out(std::vector<float>(4 * kScores, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(sort_kernel)(1, stream, in.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    auto pair_at = [&](uint32_t index) {
        Pair pair;
        std::memcpy(&pair.score, &r[2 * index], 4);
        std::memcpy(&pair.index, &r[2 * index + 1], 4);
        return pair;
    };
    // Merging four sorted queues of equal scores keeps queue order: that is a stable sort of all.
    const auto all = sorted_pairs(scores, 0, kScores);
    for (uint32_t i = 0; i < kScores; ++i) {
        CAPTURE(i);
        CHECK(pair_at(i).score == all[i].score);
        CHECK(pair_at(i).index == all[i].index);
    }
    const auto low = sorted_pairs(scores, 0, 64), high = sorted_pairs(scores, 64, 64);
    for (uint32_t i = 0; i < 64; ++i) {
        CAPTURE(i);
        CHECK(pair_at(128 + i).index == low[i].index);
        CHECK(pair_at(192 + i).index == high[i].index);
    }
}

namespace {

extern "C" __global__ __aicore__ void sort_misuse_kernel(int32_t which) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 256 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    AscendC::MrgSort4Info params;
    for (auto& length : params.elementLengths) length = 32;
    params.validBit = which == 0 ? 5 : 0b1111;
    // Queue 4 starts 224 floats in: its 32 pairs (256 bytes) run past the tensor's last 128 bytes.
    AscendC::MrgSort(t, {t[0], t[64], t[128], t[224]}, params);
}

}  // namespace

TEST_CASE("MrgSort with a bad validBit or queues past their tensors fails the launch with 507015") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(sort_misuse_kernel)(1, stream, 0), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"sort_misuse_kernel", "MrgSort", "validBit 5 is not 3, 7 or 15"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(sort_misuse_kernel)(1, stream, 1), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"MrgSort", "queue 4 reaches 256 bytes but its LocalTensor holds 128 bytes"});
}
