// canopy-bench's command line (bench/canopy_bench/options.cpp, layout.cpp): the defaults, every
// option in both spellings, and each error, whose message must name the option and the fault.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "layout.h"
#include "options.h"

using namespace canopy_bench;

namespace {

ParseResult parse(std::vector<std::string> arguments) { return parse_options(arguments); }

// The command line is rejected with a message containing each of `parts`.
void check_error(std::vector<std::string> arguments, std::vector<std::string> parts) {
    const ParseResult result = parse(arguments);
    std::string line;
    for (const std::string& argument : arguments) line += argument + " ";
    CAPTURE(line);
    CAPTURE(result.error);
    REQUIRE_FALSE(result.ok());
    for (const std::string& part : parts) CHECK(result.error.find(part) != std::string::npos);
}

}  // namespace

TEST_CASE("canopy-bench options: the defaults are valid and plan a chunk") {
    const ParseResult result = parse({});
    REQUIRE(result.ok());
    const Options& o = result.options;
    CHECK(o.streams == 4);
    CHECK(o.chunk_bytes == 1u << 20);
    CHECK(o.chunks == 48);
    CHECK(o.kernels == std::vector<Kernel>{Kernel::add, Kernel::softmax});
    CHECK(o.blocks == 8);
    CHECK(o.priorities.empty());
    CHECK(o.priority_of(3) == 0);
    CHECK(o.devices == 1);
    CHECK(o.repetitions == 3);
    CHECK(o.json_path.empty());
    CHECK_FALSE(o.corrupt_chunk);
    CHECK_FALSE(o.help);
    CHECK(o.total_chunks() == 192);

    Layout layout;
    REQUIRE(plan_layout(o, layout).empty());
    CHECK(layout.element == Element::f32);
    CHECK(layout.elements == 262144);
    CHECK(layout.add.length == 262144);
    CHECK(layout.add.blocks == 8);
    // 32768 floats per block in 2 x 4 tiles of 4096.
    CHECK(layout.add.tile_num == 4);
    CHECK(layout.rows.rows == 1024);
    CHECK(layout.rows.launches == 16);
    CHECK(layout.launches == std::vector<std::uint32_t>{1, 16});
    CHECK(layout.blocks == std::vector<std::uint32_t>{8, 1});
}

TEST_CASE("canopy-bench options: every option, as --name value and --name=value") {
    const ParseResult result = parse({"--streams", "6", "--chunk-bytes=256K", "--chunks", "10", "--kernel",
                                      "softmax,layernorm,add", "--blocks=4", "--priorities", "0,1,2,3,4,7",
                                      "--devices", "2", "--repetitions=5", "--json", "out.json", "--corrupt-chunk=59"});
    REQUIRE(result.ok());
    const Options& o = result.options;
    CHECK(o.streams == 6);
    CHECK(o.chunk_bytes == 256u << 10);
    CHECK(o.chunks == 10);
    CHECK(o.kernels == std::vector<Kernel>{Kernel::softmax, Kernel::layernorm, Kernel::add});
    CHECK(o.blocks == 4);
    CHECK(o.priorities == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 7});
    CHECK(o.priority_of(5) == 7);
    CHECK(o.devices == 2);
    CHECK(o.repetitions == 5);
    CHECK(o.json_path == "out.json");
    REQUIRE(o.corrupt_chunk);
    CHECK(*o.corrupt_chunk == 59);
}

TEST_CASE("canopy-bench options: size suffixes, one priority for all, later options win") {
    CHECK(parse({"--chunk-bytes", "2M"}).options.chunk_bytes == 2u << 20);
    CHECK(parse({"--chunk-bytes", "2MiB"}).options.chunk_bytes == 2u << 20);
    CHECK(parse({"--chunk-bytes", "64k"}).options.chunk_bytes == 64u << 10);
    CHECK(parse({"--chunk-bytes", "64KiB"}).options.chunk_bytes == 64u << 10);
    CHECK(parse({"--chunk-bytes", "1G"}).options.chunk_bytes == 1u << 30);
    CHECK(parse({"--chunk-bytes", "131072"}).options.chunk_bytes == 131072);
    const ParseResult one = parse({"--priorities", "3"});
    REQUIRE(one.ok());
    CHECK(one.options.priority_of(0) == 3);
    CHECK(one.options.priority_of(3) == 3);
    CHECK(parse({"--streams", "2", "--streams", "3"}).options.streams == 3);
    const ParseResult help = parse({"--streams", "0", "--help"});
    CHECK_FALSE(help.ok());  // an invalid value is reported even beside --help
    const ParseResult only_help = parse({"--help"});
    REQUIRE(only_help.ok());
    CHECK(only_help.options.help);
    CHECK(usage("canopy-bench").find("--chunk-bytes") != std::string::npos);
    CHECK(usage("canopy-bench").find("--corrupt-chunk") == std::string::npos);  // hidden
}

TEST_CASE("canopy-bench options: -h, --version and JSON to standard output") {
    CHECK(parse({"-h"}).options.help);
    const ParseResult version = parse({"--version"});
    REQUIRE(version.ok());
    CHECK(version.options.version);
    CHECK_FALSE(version.options.help);
    const ParseResult to_stdout = parse({"--json", "-"});
    REQUIRE(to_stdout.ok());
    CHECK(to_stdout.options.json_to_stdout());
    CHECK_FALSE(parse({"--json", "run.json"}).options.json_to_stdout());
    CHECK(usage("canopy-bench").find("-h, --help") != std::string::npos);
}

TEST_CASE("canopy-bench options: matmul chains on half") {
    const ParseResult result = parse({"--kernel", "matmul,add,matmul", "--chunk-bytes", "64K", "--blocks", "4"});
    REQUIRE(result.ok());
    Layout layout;
    REQUIRE(plan_layout(result.options, layout).empty());
    CHECK(layout.element == Element::f16);
    CHECK(layout.elements == 32768);
    CHECK(layout.matmul.m == 128);
    CHECK(layout.matmul.k == 256);
    CHECK(layout.matmul.n == 256);
    CHECK(layout.matmul.single_core_m == 32);
    CHECK(layout.matmul.base_m == 32);
    CHECK(layout.matmul.blocks == 4);
    CHECK(layout.add.length == 32768);
    CHECK(layout.launches == std::vector<std::uint32_t>{1, 1, 1});
    CHECK(layout.blocks == std::vector<std::uint32_t>{4, 4, 4});
}

TEST_CASE("canopy-bench options: malformed command lines") {
    check_error({"fast"}, {"unexpected argument 'fast'"});
    check_error({"--"}, {"unexpected argument '--'"});
    check_error({"-s", "4"}, {"unexpected argument '-s'"});
    check_error({"--stream", "4"}, {"unknown option '--stream'"});
    check_error({"--streams"}, {"--streams needs a value"});
    check_error({"--chunks", "4", "--kernel"}, {"--kernel needs a value"});
    check_error({"--help=yes"}, {"--help takes no value"});
    check_error({"--version=1"}, {"--version takes no value"});
    check_error({"-v"}, {"unexpected argument '-v'"});
}

TEST_CASE("canopy-bench options: numbers out of range or malformed") {
    check_error({"--streams", "0"}, {"--streams 0", "must be in [1, 256]"});
    check_error({"--streams", "257"}, {"--streams 257", "[1, 256]"});
    check_error({"--streams", "four"}, {"--streams four", "expected a non-negative integer"});
    check_error({"--streams", "-1"}, {"--streams -1", "expected a non-negative integer"});
    check_error({"--streams="}, {"--streams ''", "expected a non-negative integer"});
    check_error({"--streams", "4x"}, {"--streams 4x", "unexpected 'x' after the number"});
    check_error({"--streams", "4K"}, {"--streams 4K", "unexpected 'K'"});
    check_error({"--streams", "99999999999999999999999"}, {"--streams", "too large"});
    check_error({"--chunk-bytes", "1T"}, {"--chunk-bytes 1T", "the suffixes are K, M and G"});
    check_error({"--chunk-bytes", "32"}, {"--chunk-bytes 32", "[64, 1073741824]"});
    check_error({"--chunk-bytes", "2G"}, {"--chunk-bytes 2G", "[64, 1073741824]"});
    check_error({"--chunk-bytes", "18446744073709551615K"}, {"--chunk-bytes", "too large"});
    check_error({"--chunks", "0"}, {"--chunks 0", "[1, 1000000]"});
    check_error({"--blocks", "0"}, {"--blocks 0", "[1, 65535]"});
    check_error({"--blocks", "65536"}, {"--blocks 65536", "[1, 65535]"});
    check_error({"--devices", "0"}, {"--devices 0", "[1, 64]"});
    check_error({"--devices", "65"}, {"--devices 65", "[1, 64]"});
    check_error({"--repetitions", "0"}, {"--repetitions 0", "[1, 1000]"});
    check_error({"--corrupt-chunk", "x"}, {"--corrupt-chunk x", "expected a non-negative integer"});
}

TEST_CASE("canopy-bench options: lists") {
    check_error({"--kernel", ""}, {"--kernel ''", "empty item"});
    check_error({"--kernel", "add,,softmax"}, {"--kernel 'add,,softmax'", "empty item"});
    check_error({"--kernel", "add,"}, {"empty item"});
    check_error({"--kernel", "gelu"}, {"unknown kernel 'gelu'", "add, softmax, layernorm, matmul"});
    check_error({"--kernel", "softmax,matmul"}, {"matmul works on half", "cannot mix"});
    check_error({"--kernel", "matmul,layernorm"}, {"cannot mix"});
    check_error({"--priorities", "8"}, {"--priorities 8", "[0, 7]"});
    check_error({"--priorities", "1,x"}, {"--priorities x", "expected a non-negative integer"});
    check_error({"--priorities", "1,,2"}, {"--priorities '1,,2'", "empty item"});
    check_error({"--priorities", "1,2"}, {"--priorities gives 2 values for --streams 4"});
    check_error({"--json", ""}, {"--json needs a file name"});
    check_error({"--json="}, {"--json needs a file name"});
}

TEST_CASE("canopy-bench options: options that contradict each other") {
    check_error({"--devices", "5"}, {"--devices 5 exceeds --streams 4"});
    check_error({"--corrupt-chunk", "192"}, {"--corrupt-chunk 192 is not below the 192 chunks"});
    CHECK(parse({"--corrupt-chunk", "191"}).ok());
}

TEST_CASE("canopy-bench options: chunk sizes the kernels cannot split") {
    check_error({"--chunk-bytes", "65", "--kernel", "add"}, {"--chunk-bytes 65", "4-byte elements"});
    check_error({"--chunk-bytes", "1000", "--kernel", "add"},
                {"add: --chunk-bytes 1000", "--blocks 8", "use a multiple of 512 bytes"});
    check_error({"--chunk-bytes", "4K", "--kernel", "add", "--blocks", "3"}, {"add:", "--blocks 3"});
    CHECK(parse({"--chunk-bytes", "6K", "--kernel", "add", "--blocks", "3"}).ok());
    check_error({"--chunk-bytes", "1536", "--kernel", "softmax"},
                {"softmax: --chunk-bytes 1536", "rows of 256 floats", "multiple of 1024 bytes"});
    check_error({"--chunk-bytes", "1536", "--kernel", "layernorm"}, {"layernorm: --chunk-bytes 1536"});
    check_error({"--chunk-bytes", "4K", "--kernel", "matmul"},
                {"matmul: --chunk-bytes 4096", "16-row bands", "multiple of 8192 bytes"});
    check_error({"--chunk-bytes", "8K", "--kernel", "matmul", "--blocks", "8"},
                {"matmul: the chunk's M = 16 rows", "--blocks 8"});
    CHECK(parse({"--chunk-bytes", "8K", "--kernel", "matmul", "--blocks", "1"}).ok());
    // A remainder of rows is covered by a shorter last launch.
    const ParseResult rows = parse({"--chunk-bytes", "65K", "--kernel", "softmax"});
    REQUIRE(rows.ok());
    Layout layout;
    REQUIRE(plan_layout(rows.options, layout).empty());
    CHECK(layout.rows.rows == 65);
    CHECK(layout.rows.launches == 2);
    CHECK(layout.rows.rows_in_launch(0) == 64);
    CHECK(layout.rows.rows_in_launch(1) == 1);
}
