// aclnn (libnnopbase, libopapi): tensor and scalar objects, aclDataBuffer, and aclnnAdd / aclnnMul
// in their two phases: goldens in each element type, broadcasting, alpha, type promotion, strided
// views, the workspace, executors, the error table, and ordering with the stream's other work.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "support.h"

using namespace canopy_test;

namespace {

// CANN's aclnn status codes ("aclnn return codes").
constexpr aclnnStatus kNullptr = 161001;
constexpr aclnnStatus kInvalid = 161002;
constexpr aclnnStatus kRuntimeError = 361001;

std::string message() { return recent_error(); }

std::vector<int64_t> row_major(const std::vector<int64_t>& shape) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
    return strides;
}

template <class T>
constexpr aclDataType dtype_of() {
    if constexpr (std::is_same_v<T, float>) return ACL_FLOAT;
    else if constexpr (std::is_same_v<T, Eigen::half>) return ACL_FLOAT16;
    else if constexpr (std::is_same_v<T, Eigen::bfloat16>) return ACL_BF16;
    else if constexpr (std::is_same_v<T, double>) return ACL_DOUBLE;
    else if constexpr (std::is_same_v<T, int8_t>) return ACL_INT8;
    else if constexpr (std::is_same_v<T, uint8_t>) return ACL_UINT8;
    else if constexpr (std::is_same_v<T, int16_t>) return ACL_INT16;
    else if constexpr (std::is_same_v<T, int32_t>) return ACL_INT32;
    else return ACL_INT64;
}

// Device memory with an aclTensor over it (row-major unless strides are given).
template <class T>
class DeviceTensor {
public:
    DeviceTensor(const std::vector<T>& host, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
                 int64_t offset = 0)
        : count_(host.size()) {
        REQUIRE_ACL(aclrtMalloc(&device_, bytes() == 0 ? 1 : bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        if (bytes() != 0) {
            REQUIRE_ACL(aclrtMemcpy(device_, bytes(), host.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
        }
        if (strides.empty()) strides = row_major(shape);
        tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype_of<T>(), strides.data(), offset, ACL_FORMAT_ND,
                                  shape.data(), shape.size(), device_);
        REQUIRE_MESSAGE(tensor_ != nullptr, message());
    }
    ~DeviceTensor() {
        aclDestroyTensor(tensor_);
        aclrtFree(device_);
    }
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    aclTensor* get() const { return tensor_; }
    void* device() const { return device_; }
    std::size_t bytes() const { return count_ * sizeof(T); }
    std::vector<T> read() const {
        std::vector<T> host(count_);
        if (bytes() != 0) REQUIRE_ACL(aclrtMemcpy(host.data(), bytes(), device_, bytes(), ACL_MEMCPY_DEVICE_TO_HOST));
        return host;
    }

private:
    std::size_t count_;
    void* device_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

class Scalar {
public:
    template <class T>
    explicit Scalar(T value) : scalar_(aclCreateScalar(&value, dtype_of<T>())) {
        REQUIRE_MESSAGE(scalar_ != nullptr, message());
    }
    ~Scalar() { aclDestroyScalar(scalar_); }
    Scalar(const Scalar&) = delete;
    Scalar& operator=(const Scalar&) = delete;
    aclScalar* get() const { return scalar_; }

private:
    aclScalar* scalar_;
};

class Workspace {
public:
    explicit Workspace(uint64_t bytes) {
        if (bytes != 0) REQUIRE_ACL(aclrtMalloc(&memory_, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    ~Workspace() {
        if (memory_) aclrtFree(memory_);
    }
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    void* get() const { return memory_; }

private:
    void* memory_ = nullptr;
};

// Both phases of aclnnAdd (alpha given) or aclnnMul, then a synchronize; the status of the first
// failing call.
aclnnStatus run_add(const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out,
                    aclrtStream stream) {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus planned = aclnnAddGetWorkspaceSize(self, other, alpha, out, &size, &executor);
    if (planned != 0) return planned;
    Workspace workspace(size);
    const aclnnStatus ran = aclnnAdd(workspace.get(), size, executor, stream);
    if (ran != 0) return ran;
    return aclrtSynchronizeStream(stream);
}

aclnnStatus run_mul(const aclTensor* self, const aclTensor* other, aclTensor* out, aclrtStream stream) {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus planned = aclnnMulGetWorkspaceSize(self, other, out, &size, &executor);
    if (planned != 0) return planned;
    Workspace workspace(size);
    const aclnnStatus ran = aclnnMul(workspace.get(), size, executor, stream);
    if (ran != 0) return ran;
    return aclrtSynchronizeStream(stream);
}

template <class T>
std::vector<T> sequence(std::size_t n, int modulus, int bias) {
    std::vector<T> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<T>(static_cast<int>(i % modulus) + bias);
    return values;
}

// The golden of one element type: out = self + alpha * other and out = self * other, over a
// length that splits into several blocks and tiles with a ragged tail.
template <class T, class Alpha>
void check_golden(Alpha alpha) {
    const aclDataType dtype = dtype_of<T>();
    CAPTURE(dtype);
    Runtime rt;
    Stream stream;
    const std::size_t n = 70001;
    const std::vector<T> a = sequence<T>(n, 13, -6);
    const std::vector<T> b = sequence<T>(n, 7, -3);
    DeviceTensor<T> self(a, {int64_t(n)}), other(b, {int64_t(n)}), out(std::vector<T>(n), {int64_t(n)});
    Scalar alpha_scalar(alpha);
    REQUIRE_ACL(run_add(self.get(), other.get(), alpha_scalar.get(), out.get(), stream));
    std::vector<T> sum = out.read();
    REQUIRE_ACL(run_mul(self.get(), other.get(), out.get(), stream));
    std::vector<T> product = out.read();
    int wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        using Wide = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
        const T expected_sum = static_cast<T>(Wide(a[i]) + Wide(alpha) * Wide(b[i]));
        const T expected_product = static_cast<T>(Wide(a[i]) * Wide(b[i]));
        if (!(sum[i] == expected_sum) || !(product[i] == expected_product)) ++wrong;
    }
    CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("aclCreateTensor keeps the view and refuses bad descriptions") {
    const int64_t dims[] = {2, 3};
    const int64_t strides[] = {3, 1};
    float data[6];
    aclTensor* tensor = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 1, ACL_FORMAT_ND, dims, 2, data);
    REQUIRE(tensor != nullptr);
    int64_t* view = nullptr;
    uint64_t view_count = 0;
    CHECK(aclGetViewShape(tensor, &view, &view_count) == 0);
    REQUIRE(view_count == 2);
    CHECK(view[0] == 2);
    CHECK(view[1] == 3);
    delete[] view;
    int64_t* got_strides = nullptr;
    uint64_t stride_count = 0;
    CHECK(aclGetViewStrides(tensor, &got_strides, &stride_count) == 0);
    REQUIRE(stride_count == 2);
    CHECK(got_strides[0] == 3);
    delete[] got_strides;
    int64_t offset = -1;
    CHECK(aclGetViewOffset(tensor, &offset) == 0);
    CHECK(offset == 1);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    CHECK(aclGetFormat(tensor, &format) == 0);
    CHECK(format == ACL_FORMAT_ND);
    aclDataType dtype = ACL_DT_UNDEFINED;
    CHECK(aclGetDataType(tensor, &dtype) == 0);
    CHECK(dtype == ACL_FLOAT);
    CHECK(aclGetDataType(tensor, nullptr) == kNullptr);
    CHECK(message().find("dataType") != std::string::npos);
    CHECK(aclDestroyTensor(tensor) == 0);
    CHECK(aclDestroyTensor(tensor) == kInvalid);
    CHECK(message().find("aclDestroyTensor") != std::string::npos);
    CHECK(aclDestroyTensor(nullptr) == kNullptr);

    SUBCASE("no strides means row-major") {
        aclTensor* t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, data);
        REQUIRE(t != nullptr);
        int64_t* s = nullptr;
        uint64_t n = 0;
        CHECK(aclGetViewStrides(t, &s, &n) == 0);
        CHECK(s[0] == 3);
        CHECK(s[1] == 1);
        delete[] s;
        aclDestroyTensor(t);
    }
    SUBCASE("bad arguments give NULL and say why") {
        const int64_t negative[] = {2, -1};
        const int64_t negative_strides[] = {-3, 1};
        CHECK(aclCreateTensor(nullptr, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, data) == nullptr);
        CHECK(message().find("aclCreateTensor: viewDims is NULL") != std::string::npos);
        CHECK(aclCreateTensor(negative, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, data) == nullptr);
        CHECK(message().find("viewDims[1]") != std::string::npos);
        CHECK(aclCreateTensor(dims, 2, static_cast<aclDataType>(99), strides, 0, ACL_FORMAT_ND, dims, 2, data) ==
              nullptr);
        CHECK(message().find("dataType") != std::string::npos);
        CHECK(aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, static_cast<aclFormat>(99), dims, 2, data) == nullptr);
        CHECK(message().find("format") != std::string::npos);
        CHECK(aclCreateTensor(dims, 2, ACL_FLOAT, strides, -1, ACL_FORMAT_ND, dims, 2, data) == nullptr);
        CHECK(message().find("offset") != std::string::npos);
        CHECK(aclCreateTensor(dims, 2, ACL_FLOAT, negative_strides, 0, ACL_FORMAT_ND, dims, 2, data) == nullptr);
        CHECK(message().find("stride[0]") != std::string::npos);
        CHECK(aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, nullptr, 2, data) == nullptr);
        CHECK(message().find("storageDims") != std::string::npos);
    }
}

TEST_CASE("aclCreateScalar copies its value; bad scalars are refused") {
    float value = 2.5f;
    aclScalar* scalar = aclCreateScalar(&value, ACL_FLOAT);
    REQUIRE(scalar != nullptr);
    CHECK(aclCreateScalar(nullptr, ACL_FLOAT) == nullptr);
    CHECK(message().find("aclCreateScalar: value is NULL") != std::string::npos);
    CHECK(aclCreateScalar(&value, ACL_STRING) == nullptr);
    CHECK(message().find("dataType") != std::string::npos);
    CHECK(aclDestroyScalar(scalar) == 0);
    CHECK(aclDestroyScalar(scalar) == kInvalid);
    CHECK(aclDestroyScalar(nullptr) == kNullptr);
}

TEST_CASE("aclDataBuffer describes memory without owning it") {
    char memory[64];
    aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
    REQUIRE(buffer != nullptr);
    CHECK(aclGetDataBufferAddr(buffer) == memory);
    CHECK(aclGetDataBufferSizeV2(buffer) == sizeof memory);
    CHECK_ACL(aclUpdateDataBuffer(buffer, memory + 32, 32));
    CHECK(aclGetDataBufferAddr(buffer) == memory + 32);
    CHECK(aclGetDataBufferSizeV2(buffer) == 32);
    CHECK_ACL_CODE(aclUpdateDataBuffer(buffer, nullptr, 8), ACL_ERROR_INVALID_PARAM);
    CHECK(message().find("aclUpdateDataBuffer: data is NULL") != std::string::npos);
    CHECK_ACL(aclDestroyDataBuffer(buffer));
    CHECK_ACL_CODE(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
    CHECK(aclGetDataBufferAddr(buffer) == nullptr);
    CHECK(aclGetDataBufferSizeV2(nullptr) == 0);
    CHECK(message().find("aclGetDataBufferSizeV2: dataBuffer is NULL") != std::string::npos);
    CHECK_ACL_CODE(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);

    aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
    REQUIRE(empty != nullptr);
    CHECK(aclGetDataBufferAddr(empty) == nullptr);
    CHECK_ACL(aclDestroyDataBuffer(empty));
    CHECK(aclCreateDataBuffer(nullptr, 16) == nullptr);
    CHECK(message().find("aclCreateDataBuffer") != std::string::npos);
}

TEST_CASE("aclnnAdd and aclnnMul goldens in each element type") {
    check_golden<float>(1.0f);
    check_golden<float>(-2.5f);
    check_golden<Eigen::half>(0.5f);
    check_golden<Eigen::bfloat16>(2.0f);
    check_golden<double>(3.0);
    check_golden<int32_t>(int32_t{3});
    check_golden<int64_t>(int64_t{-4});
    check_golden<int16_t>(int16_t{2});
    check_golden<int8_t>(int8_t{1});
}

TEST_CASE("float16 is computed in float and rounded once") {
    Runtime rt;
    Stream stream;
    // alpha * other is 2^-11 plus less than half a float16 step at 2^-11: rounded to float16 first,
    // 1 + 2^-11 would be a tie that rounds to 1; computed in float, the sum rounds up to 1 + 2^-10.
    const std::vector<Eigen::half> a(40, Eigen::half(1.0f)), b(40, Eigen::half(0.00048828125f));
    DeviceTensor<Eigen::half> self(a, {40}), other(b, {40}), out(std::vector<Eigen::half>(40), {40});
    Scalar alpha(1.0004f);
    REQUIRE_ACL(run_add(self.get(), other.get(), alpha.get(), out.get(), stream));
    for (Eigen::half v : out.read()) CHECK(float(v) == 1.0009765625f);
}

TEST_CASE("aclnnAdd and aclnnMul broadcast as aclnn does") {
    Runtime rt;
    Stream stream;
    SUBCASE("a row over a matrix") {
        DeviceTensor<float> self(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
        DeviceTensor<float> other(std::vector<float>{10, 20, 30}, {3});
        DeviceTensor<float> out(std::vector<float>(6), {2, 3});
        Scalar alpha(2.0f);
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        REQUIRE(aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha.get(), out.get(), &size, &executor) == 0);
        CHECK(size > 0);  // other is expanded into the workspace first
        Workspace workspace(size);
        REQUIRE(aclnnAdd(workspace.get(), size, executor, stream) == 0);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(out.read() == std::vector<float>{21, 42, 63, 24, 45, 66});
    }
    SUBCASE("a column times a row") {
        DeviceTensor<int32_t> self(std::vector<int32_t>{1, 2, 3, 4}, {4, 1});
        DeviceTensor<int32_t> other(std::vector<int32_t>{1, 10, 100}, {1, 3});
        DeviceTensor<int32_t> out(std::vector<int32_t>(12), {4, 3});
        REQUIRE_ACL(run_mul(self.get(), other.get(), out.get(), stream));
        CHECK(out.read() == std::vector<int32_t>{1, 10, 100, 2, 20, 200, 3, 30, 300, 4, 40, 400});
    }
    SUBCASE("a zero-dimensional tensor with a vector") {
        DeviceTensor<float> self(std::vector<float>{3}, {});
        DeviceTensor<float> other(std::vector<float>{1, 2, 3}, {3});
        DeviceTensor<float> out(std::vector<float>(3), {3});
        Scalar alpha(1.0f);
        REQUIRE_ACL(run_add(self.get(), other.get(), alpha.get(), out.get(), stream));
        CHECK(out.read() == std::vector<float>{4, 5, 6});
    }
    SUBCASE("shapes that do not broadcast") {
        DeviceTensor<float> self(std::vector<float>(6), {2, 3});
        DeviceTensor<float> other(std::vector<float>(2), {2});
        DeviceTensor<float> out(std::vector<float>(6), {2, 3});
        CHECK(run_mul(self.get(), other.get(), out.get(), stream) == kInvalid);
        CHECK(message().find("aclnnMulGetWorkspaceSize: self's shape [2, 3] and other's shape [2] do not broadcast") !=
              std::string::npos);
    }
    SUBCASE("out of another shape") {
        DeviceTensor<float> self(std::vector<float>(6), {2, 3});
        DeviceTensor<float> other(std::vector<float>(3), {3});
        DeviceTensor<float> out(std::vector<float>(6), {6});
        Scalar alpha(1.0f);
        CHECK(run_add(self.get(), other.get(), alpha.get(), out.get(), stream) == kInvalid);
        CHECK(message().find("out's shape [6] is not the broadcast shape [2, 3]") != std::string::npos);
    }
}

TEST_CASE("aclnnAdd promotes the operands' types and casts into out") {
    Runtime rt;
    Stream stream;
    SUBCASE("float16 with float32 computes in float32") {
        DeviceTensor<Eigen::half> self(std::vector<Eigen::half>{Eigen::half(1.5f), Eigen::half(-2.0f)}, {2});
        DeviceTensor<float> other(std::vector<float>{0.25f, 1.0e-4f}, {2});
        DeviceTensor<float> out(std::vector<float>(2), {2});
        Scalar alpha(1.0f);
        REQUIRE_ACL(run_add(self.get(), other.get(), alpha.get(), out.get(), stream));
        CHECK(out.read() == std::vector<float>{1.75f, -2.0f + 1.0e-4f});
    }
    SUBCASE("int32 with float32, into a float16 out") {
        DeviceTensor<int32_t> self(std::vector<int32_t>{1, 2, 3}, {3});
        DeviceTensor<float> other(std::vector<float>{0.5f, 0.25f, 0.125f}, {3});
        DeviceTensor<Eigen::half> out(std::vector<Eigen::half>(3), {3});
        Scalar alpha(2.0f);
        REQUIRE_ACL(run_add(self.get(), other.get(), alpha.get(), out.get(), stream));
        const std::vector<Eigen::half> result = out.read();
        CHECK(float(result[0]) == 2.0f);
        CHECK(float(result[1]) == 2.5f);
        CHECK(float(result[2]) == 3.25f);
    }
    SUBCASE("a float result does not go into an integer out") {
        DeviceTensor<float> self(std::vector<float>(2), {2});
        DeviceTensor<float> other(std::vector<float>(2), {2});
        DeviceTensor<int32_t> out(std::vector<int32_t>(2), {2});
        CHECK(run_mul(self.get(), other.get(), out.get(), stream) == kInvalid);
        CHECK(message().find("cannot be cast to out's ACL_INT32") != std::string::npos);
    }
    SUBCASE("a float alpha does not scale integers") {
        DeviceTensor<int32_t> self(std::vector<int32_t>(2), {2});
        DeviceTensor<int32_t> other(std::vector<int32_t>(2), {2});
        DeviceTensor<int32_t> out(std::vector<int32_t>(2), {2});
        Scalar alpha(1.5f);
        CHECK(run_add(self.get(), other.get(), alpha.get(), out.get(), stream) == kInvalid);
        CHECK(message().find("alpha has dtype ACL_FLOAT") != std::string::npos);
    }
}

TEST_CASE("aclnnAdd reads and writes strided views") {
    Runtime rt;
    Stream stream;
    // self is the transpose of a 2x3 matrix held row-major: a 3x2 view with strides {1, 3}.
    DeviceTensor<float> self(std::vector<float>{1, 2, 3, 4, 5, 6}, {3, 2}, {1, 3});
    DeviceTensor<float> other(std::vector<float>{100, 100, 100, 100, 100, 100}, {3, 2});
    // out skips the first element of its memory (offset 1).
    DeviceTensor<float> out(std::vector<float>(7, -1), {3, 2}, {2, 1}, 1);
    Scalar alpha(1.0f);
    REQUIRE_ACL(run_add(self.get(), other.get(), alpha.get(), out.get(), stream));
    CHECK(out.read() == std::vector<float>{-1, 101, 104, 102, 105, 103, 106});
}

TEST_CASE("the second phase checks the executor and the workspace") {
    Runtime rt;
    Stream stream;
    DeviceTensor<float> self(std::vector<float>{1, 2, 3, 4}, {2, 2});
    DeviceTensor<float> row(std::vector<float>{1, 1}, {2});
    DeviceTensor<float> other(std::vector<float>{1, 1, 1, 1}, {2, 2});
    DeviceTensor<float> out(std::vector<float>(4), {2, 2});
    Scalar alpha(1.0f);
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;

    SUBCASE("same shapes and types need no workspace") {
        REQUIRE(aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha.get(), out.get(), &size, &executor) == 0);
        CHECK(size == 0);
        CHECK(aclnnAdd(nullptr, 0, executor, stream) == 0);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(out.read() == std::vector<float>{2, 3, 4, 5});
    }
    SUBCASE("a workspace that is too small or missing") {
        REQUIRE(aclnnAddGetWorkspaceSize(self.get(), row.get(), alpha.get(), out.get(), &size, &executor) == 0);
        REQUIRE(size > 0);
        Workspace workspace(size);
        CHECK(aclnnAdd(workspace.get(), size - 1, executor, stream) == kInvalid);
        CHECK(message().find("aclnnAdd: workspaceSize is") != std::string::npos);
        CHECK(aclnnAdd(nullptr, size, executor, stream) == kNullptr);
        CHECK(message().find("workspace is NULL") != std::string::npos);
        // A refused call leaves the executor to a corrected one.
        CHECK(aclnnAdd(workspace.get(), size, executor, stream) == 0);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(out.read() == std::vector<float>{2, 3, 4, 5});
    }
    SUBCASE("a one-shot executor runs once") {
        REQUIRE(aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha.get(), out.get(), &size, &executor) == 0);
        CHECK(aclnnAdd(nullptr, 0, executor, stream) == 0);
        CHECK(aclnnAdd(nullptr, 0, executor, stream) == kInvalid);
        CHECK(message().find("ran already") != std::string::npos);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(aclDestroyAclOpExecutor(executor) == kInvalid);
    }
    SUBCASE("a repeatable executor runs until destroyed") {
        REQUIRE(aclnnMulGetWorkspaceSize(self.get(), self.get(), out.get(), &size, &executor) == 0);
        REQUIRE(aclSetAclOpExecutorRepeatable(executor) == 0);
        CHECK(aclnnMul(nullptr, 0, executor, stream) == 0);
        CHECK(aclnnMul(nullptr, 0, executor, stream) == 0);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(out.read() == std::vector<float>{1, 4, 9, 16});
        CHECK(aclDestroyAclOpExecutor(executor) == 0);
        CHECK(aclnnMul(nullptr, 0, executor, stream) == kInvalid);
    }
    SUBCASE("an executor of another operator") {
        REQUIRE(aclnnMulGetWorkspaceSize(self.get(), other.get(), out.get(), &size, &executor) == 0);
        CHECK(aclnnAdd(nullptr, 0, executor, stream) == kInvalid);
        CHECK(message().find("planned by aclnnMulGetWorkspaceSize") != std::string::npos);
        CHECK(aclDestroyAclOpExecutor(executor) == 0);
    }
    SUBCASE("NULL executor and a stream that is not one") {
        CHECK(aclnnAdd(nullptr, 0, nullptr, stream) == kNullptr);
        CHECK(message().find("aclnnAdd: executor is NULL") != std::string::npos);
        REQUIRE(aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha.get(), out.get(), &size, &executor) == 0);
        int not_a_stream = 0;
        CHECK(aclnnAdd(nullptr, 0, executor, &not_a_stream) == kRuntimeError);
        CHECK(message().find("refused the kernel launch") != std::string::npos);
        CHECK(aclDestroyAclOpExecutor(executor) == 0);
    }
}

TEST_CASE("the first phase names a NULL or unusable argument") {
    Runtime rt;
    DeviceTensor<float> a(std::vector<float>(4), {4});
    DeviceTensor<float> z(std::vector<float>(4), {4});
    Scalar alpha(1.0f);
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    CHECK(aclnnAddGetWorkspaceSize(nullptr, a.get(), alpha.get(), z.get(), &size, &executor) == kNullptr);
    CHECK(message().find("aclnnAddGetWorkspaceSize: self is NULL") != std::string::npos);
    CHECK(aclnnAddGetWorkspaceSize(a.get(), nullptr, alpha.get(), z.get(), &size, &executor) == kNullptr);
    CHECK(message().find("other is NULL") != std::string::npos);
    CHECK(aclnnAddGetWorkspaceSize(a.get(), a.get(), nullptr, z.get(), &size, &executor) == kNullptr);
    CHECK(message().find("alpha is NULL") != std::string::npos);
    CHECK(aclnnAddGetWorkspaceSize(a.get(), a.get(), alpha.get(), nullptr, &size, &executor) == kNullptr);
    CHECK(message().find("out is NULL") != std::string::npos);
    CHECK(aclnnMulGetWorkspaceSize(a.get(), a.get(), z.get(), nullptr, &executor) == kNullptr);
    CHECK(message().find("aclnnMulGetWorkspaceSize: workspaceSize is NULL") != std::string::npos);
    CHECK(aclnnMulGetWorkspaceSize(a.get(), a.get(), z.get(), &size, nullptr) == kNullptr);
    CHECK(message().find("executor is NULL") != std::string::npos);

    int not_a_tensor = 0;
    CHECK(aclnnMulGetWorkspaceSize(reinterpret_cast<aclTensor*>(&not_a_tensor), a.get(), z.get(), &size, &executor) ==
          kInvalid);
    CHECK(message().find("self") != std::string::npos);

    const int64_t dims[] = {4};
    bool flags[4] = {};
    aclTensor* booleans = aclCreateTensor(dims, 1, ACL_BOOL, nullptr, 0, ACL_FORMAT_ND, dims, 1, flags);
    REQUIRE(booleans != nullptr);
    CHECK(aclnnMulGetWorkspaceSize(booleans, a.get(), z.get(), &size, &executor) == kInvalid);
    CHECK(message().find("self has dtype ACL_BOOL") != std::string::npos);
    aclDestroyTensor(booleans);

    aclTensor* no_memory = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
    REQUIRE(no_memory != nullptr);
    CHECK(aclnnMulGetWorkspaceSize(a.get(), no_memory, z.get(), &size, &executor) == kNullptr);
    CHECK(message().find("other's device address is NULL") != std::string::npos);
    aclDestroyTensor(no_memory);
}

TEST_CASE("an empty output needs no work") {
    Runtime rt;
    Stream stream;
    DeviceTensor<float> a(std::vector<float>{}, {0, 3});
    DeviceTensor<float> b(std::vector<float>{1, 2, 3}, {3});
    DeviceTensor<float> z(std::vector<float>{}, {0, 3});
    Scalar alpha(1.0f);
    uint64_t size = 1;
    aclOpExecutor* executor = nullptr;
    REQUIRE(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), z.get(), &size, &executor) == 0);
    CHECK(size == 0);
    CHECK(aclnnAdd(nullptr, 0, executor, stream) == 0);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("aclnnAdd runs in stream order with the stream's other work") {
    Runtime rt;
    Stream stream;
    Gate gate;
    constexpr std::size_t n = 1000;
    DeviceTensor<float> self(std::vector<float>(n, 0.0f), {int64_t(n)});
    DeviceTensor<float> other(std::vector<float>(n, 1.0f), {int64_t(n)});
    DeviceTensor<float> out(std::vector<float>(n, -1.0f), {int64_t(n)});
    Scalar alpha(10.0f);
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    REQUIRE(aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha.get(), out.get(), &size, &executor) == 0);

    // Page-locked host memory, so that the copies are enqueued rather than done at once.
    float* twos = nullptr;
    float* result = nullptr;
    REQUIRE_ACL(aclrtMallocHost(reinterpret_cast<void**>(&twos), n * sizeof(float)));
    REQUIRE_ACL(aclrtMallocHost(reinterpret_cast<void**>(&result), n * sizeof(float)));
    std::fill(twos, twos + n, 2.0f);
    std::fill(result, result + n, 0.0f);
    // On the held stream: a copy into self, the add, a copy of out back. Nothing runs before the
    // gate opens, then the add sees the copied self.
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtMemcpyAsync(self.device(), self.bytes(), twos, self.bytes(), ACL_MEMCPY_HOST_TO_DEVICE, stream));
    REQUIRE(aclnnAdd(nullptr, size, executor, stream) == 0);
    REQUIRE_ACL(aclrtMemcpyAsync(result, out.bytes(), out.device(), out.bytes(), ACL_MEMCPY_DEVICE_TO_HOST, stream));
    REQUIRE(gate.wait_entered());
    CHECK(out.read() == std::vector<float>(n, -1.0f));
    gate.open();
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(std::vector<float>(result, result + n) == std::vector<float>(n, 12.0f));
    aclrtFreeHost(twos);
    aclrtFreeHost(result);
}
