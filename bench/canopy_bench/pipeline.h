#pragma once
// The runtime side of canopy-bench: devices, streams, buffers and events, and the two ways of
// running the same work: pipelined (each stream's chunks through copy-in, compute and copy-out
// streams, two chunks in flight) and on one stream.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "layout.h"
#include "options.h"
#include "progress.h"
#include "workload.h"

namespace canopy_bench {

// An AscendCL call that failed: the call and aclGetRecentErrMsg.
class RuntimeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Per-chunk times of one run, in milliseconds, from aclrtRecordEvent + aclrtEventElapsedTime.
struct RunTimes {
    double span_ms = 0;  // first copy-in start to last copy-out end
    std::vector<double> h2d, d2h, chunk;
    std::vector<std::vector<double>> kernels;  // per kernel of the chain
};

enum class Mode { pipelined, one_stream };

struct DeviceResident;

class Pipeline {
public:
    Pipeline(const Options& options, const Layout& layout, const Resident& resident, Progress& progress);
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    // Runs the first `chunks` chunks of every stream (all of them in the measured runs).
    RunTimes run(Mode mode, std::uint32_t chunks, const std::string& label);

    std::uint8_t* input(std::uint32_t stream, std::uint32_t chunk) const;
    std::uint8_t* output(std::uint32_t stream, std::uint32_t chunk) const;

private:
    struct Lane;

    void use_device(std::uint32_t device);
    void enqueue_chunk(Lane& lane, std::uint32_t chunk, Mode mode, aclrtStream single,
                       std::vector<aclrtEvent>& events, std::uint64_t slot_index);
    void launch_chain(Lane& buffers, std::uint32_t slot, aclrtStream stream, aclrtEvent start,
                      const aclrtEvent* kernel_ends);
    void wait_for(Mode mode, std::uint32_t chunks);
    aclrtEvent event(std::vector<aclrtEvent>& events, std::uint64_t chunk_index, std::uint32_t which) const;

    const Options& options_;
    const Layout& layout_;
    Progress& progress_;
    std::uint32_t events_per_chunk_;
    std::vector<aclrtContext> contexts_;
    std::vector<DeviceResident*> residents_;  // per device
    std::vector<Lane*> lanes_;
    aclrtStream single_ = nullptr;             // the one stream (device 0)
    std::vector<aclrtEvent> single_events_;   // per chunk of all streams, on device 0
};

}  // namespace canopy_bench
