#include "pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "canopy/kernel/launch.h"
#include "reference_ops.h"

namespace canopy_bench {

namespace {

void check(aclError error, const char* call) {
    if (error != ACL_SUCCESS) {
        throw RuntimeError(std::string(call) + " failed (" + std::to_string(error) + "): " + aclGetRecentErrMsg());
    }
}
#define BENCH_ACL(call) check((call), #call)
#define BENCH_LAUNCH(call) check(static_cast<aclError>(call), #call)

// Event slots of a chunk: copy-in start and end, compute start, one end per kernel, copy-out start
// and end.
constexpr std::uint32_t h2d_start = 0, h2d_end = 1, compute_start = 2, first_kernel_end = 3;

void* device_copy(const void* host, std::size_t bytes) {
    void* device = nullptr;
    BENCH_ACL(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    BENCH_ACL(aclrtMemcpy(device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    return device;
}

}  // namespace

// The operands every chunk of a device shares.
struct DeviceResident {
    void* add_other = nullptr;
    void* gamma = nullptr;
    void* beta = nullptr;
    void* weight = nullptr;
};

// One pipeline stream: a copy-in, a compute and a copy-out stream of one device, two chunk slots of
// device memory, the host memory of all its chunks, and the events of its chunks.
struct Pipeline::Lane {
    std::uint32_t device = 0;
    aclrtStream in = nullptr, compute = nullptr, out = nullptr;
    void* slot_in[2] = {};
    void* slot_a[2] = {};  // outputs of kernels 0, 2, 4, ...
    void* slot_b[2] = {};  // outputs of kernels 1, 3, ...
    DeviceResident* resident = nullptr;
    std::uint8_t* host_in = nullptr;
    std::uint8_t* host_out = nullptr;
    std::vector<aclrtEvent> events;
};

Pipeline::Pipeline(const Options& options, const Layout& layout, const Resident& resident, Progress& progress)
    : options_(options), layout_(layout), progress_(progress),
      events_per_chunk_(static_cast<std::uint32_t>(options.kernels.size()) + 5) {
    const std::size_t bytes = options.chunk_bytes;
    contexts_.resize(options.devices);
    for (std::uint32_t d = 0; d < options.devices; ++d) {
        BENCH_ACL(aclrtSetDevice(static_cast<int32_t>(d)));
        BENCH_ACL(aclrtGetCurrentContext(&contexts_[d]));
        residents_.push_back(new DeviceResident);
        DeviceResident& r = *residents_.back();
        r.add_other = device_copy(resident.add_other.data(), resident.add_other.size());
        r.gamma = device_copy(resident.gamma.data(), resident.gamma.size() * sizeof(float));
        r.beta = device_copy(resident.beta.data(), resident.beta.size() * sizeof(float));
        r.weight = device_copy(resident.weight.data(), resident.weight.size());
    }
    int32_t least = 0, greatest = 0;
    BENCH_ACL(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    for (std::uint32_t s = 0; s < options.streams; ++s) {
        const std::uint32_t priority = options.priority_of(s);
        if (static_cast<int32_t>(priority) < std::min(least, greatest) ||
            static_cast<int32_t>(priority) > std::max(least, greatest)) {
            throw RuntimeError("--priorities " + std::to_string(priority) + " is outside the runtime's range [" +
                               std::to_string(greatest) + ", " + std::to_string(least) + "]");
        }
        Lane* lane = new Lane;
        lanes_.push_back(lane);
        lane->device = s % options.devices;
        use_device(lane->device);
        lane->resident = residents_[lane->device];
        BENCH_ACL(aclrtCreateStreamWithConfig(&lane->in, priority, 0));
        BENCH_ACL(aclrtCreateStreamWithConfig(&lane->compute, priority, 0));
        BENCH_ACL(aclrtCreateStreamWithConfig(&lane->out, priority, 0));
        for (int k = 0; k < 2; ++k) {
            BENCH_ACL(aclrtMalloc(&lane->slot_in[k], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
            BENCH_ACL(aclrtMalloc(&lane->slot_a[k], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
            if (options.kernels.size() > 1) BENCH_ACL(aclrtMalloc(&lane->slot_b[k], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        }
        // Page-locked, so that the copies are asynchronous (pageable memory is copied synchronously).
        BENCH_ACL(aclrtMallocHost(reinterpret_cast<void**>(&lane->host_in), bytes * options.chunks));
        BENCH_ACL(aclrtMallocHost(reinterpret_cast<void**>(&lane->host_out), bytes * options.chunks));
        lane->events.resize(std::size_t(options.chunks) * events_per_chunk_);
        for (aclrtEvent& e : lane->events) BENCH_ACL(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    }
    use_device(0);
    BENCH_ACL(aclrtCreateStream(&single_));
    single_events_.resize(options.total_chunks() * events_per_chunk_);
    for (aclrtEvent& e : single_events_) BENCH_ACL(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
}

Pipeline::~Pipeline() {
    // Errors while releasing are not worth more than the results already printed.
    for (Lane* lane : lanes_) {
        use_device(lane->device);
        for (aclrtEvent e : lane->events) aclrtDestroyEvent(e);
        for (aclrtStream stream : {lane->in, lane->compute, lane->out}) aclrtDestroyStream(stream);
        for (int k = 0; k < 2; ++k) {
            for (void* buffer : {lane->slot_in[k], lane->slot_a[k], lane->slot_b[k]}) {
                if (buffer) aclrtFree(buffer);
            }
        }
        aclrtFreeHost(lane->host_in);
        aclrtFreeHost(lane->host_out);
        delete lane;
    }
    use_device(0);
    for (aclrtEvent e : single_events_) aclrtDestroyEvent(e);
    aclrtDestroyStream(single_);
    for (std::uint32_t d = 0; d < residents_.size(); ++d) {
        use_device(d);
        const DeviceResident& r = *residents_[d];
        for (void* buffer : {r.add_other, r.gamma, r.beta, r.weight}) {
            if (buffer) aclrtFree(buffer);
        }
        delete residents_[d];
        aclrtResetDevice(static_cast<int32_t>(d));
    }
}

std::uint8_t* Pipeline::input(std::uint32_t stream, std::uint32_t chunk) const {
    return lanes_[stream]->host_in + std::size_t(chunk) * options_.chunk_bytes;
}

std::uint8_t* Pipeline::output(std::uint32_t stream, std::uint32_t chunk) const {
    return lanes_[stream]->host_out + std::size_t(chunk) * options_.chunk_bytes;
}

void Pipeline::use_device(std::uint32_t device) {
    // A stream is used from a thread whose current context is the stream's.
    if (!contexts_.empty() && contexts_[device]) BENCH_ACL(aclrtSetCurrentContext(contexts_[device]));
}

aclrtEvent Pipeline::event(std::vector<aclrtEvent>& events, std::uint64_t chunk_index, std::uint32_t which) const {
    return events[chunk_index * events_per_chunk_ + which];
}

void Pipeline::launch_chain(Lane& buffers, std::uint32_t slot, aclrtStream stream, aclrtEvent start,
                            const aclrtEvent* kernel_ends) {
    BENCH_ACL(aclrtRecordEvent(start, stream));
    const DeviceResident& r = *buffers.resident;
    for (std::size_t j = 0; j < options_.kernels.size(); ++j) {
        auto* in = static_cast<std::uint8_t*>(j == 0 ? buffers.slot_in[slot]
                                                     : (j % 2 == 1 ? buffers.slot_a[slot] : buffers.slot_b[slot]));
        auto* out = static_cast<std::uint8_t*>(j % 2 == 0 ? buffers.slot_a[slot] : buffers.slot_b[slot]);
        switch (options_.kernels[j]) {
            case Kernel::add: {
                const AddTiling tiling{layout_.add.length, layout_.add.tile_num};
                if (layout_.element == Element::f32) {
                    BENCH_LAUNCH(ACLRT_LAUNCH_KERNEL(add_custom)(layout_.add.blocks, stream, in, r.add_other, out, tiling));
                } else {
                    BENCH_LAUNCH(
                        ACLRT_LAUNCH_KERNEL(add_custom_half)(layout_.add.blocks, stream, in, r.add_other, out, tiling));
                }
                break;
            }
            case Kernel::softmax:
            case Kernel::layernorm: {
                // One-block launches over consecutive row ranges of the chunk.
                const std::size_t row_bytes = std::size_t(row_columns) * sizeof(float);
                for (std::uint32_t launch = 0; launch < layout_.rows.launches; ++launch) {
                    const std::size_t offset = std::size_t(launch) * rows_per_launch * row_bytes;
                    const std::uint32_t rows = layout_.rows.rows_in_launch(launch);
                    if (options_.kernels[j] == Kernel::softmax) {
                        BENCH_LAUNCH(ACLRT_LAUNCH_KERNEL(softmax_custom)(1, stream, in + offset, out + offset,
                                                                         RowsTiling{rows, row_columns}));
                    } else {
                        BENCH_LAUNCH(ACLRT_LAUNCH_KERNEL(layernorm_custom)(
                            1, stream, in + offset, r.gamma, r.beta, out + offset,
                            NormTiling{rows, row_columns, layernorm_epsilon}));
                    }
                }
                break;
            }
            case Kernel::matmul: {
                const MatmulPlan& p = layout_.matmul;
                const MatmulTiling tiling{p.m, p.n, p.k, p.single_core_m, p.single_core_n, p.base_m, p.base_n, p.base_k};
                BENCH_LAUNCH(ACLRT_LAUNCH_KERNEL(matmul_custom)(p.blocks, stream, in, r.weight, out, tiling));
                break;
            }
        }
        BENCH_ACL(aclrtRecordEvent(kernel_ends[j], stream));
    }
}

void Pipeline::enqueue_chunk(Lane& lane, std::uint32_t chunk, Mode mode, aclrtStream single,
                             std::vector<aclrtEvent>& events, std::uint64_t index) {
    const std::uint32_t kernels = static_cast<std::uint32_t>(options_.kernels.size());
    const std::uint32_t last_kernel_end = first_kernel_end + kernels - 1;
    const std::uint32_t d2h_start = first_kernel_end + kernels, d2h_end = d2h_start + 1;
    const std::uint32_t slot = static_cast<std::uint32_t>(index % 2);
    Lane& buffers = mode == Mode::pipelined ? lane : *lanes_[0];
    const std::size_t bytes = options_.chunk_bytes;
    const bool pipelined = mode == Mode::pipelined;
    aclrtStream in = pipelined ? lane.in : single;
    aclrtStream compute = pipelined ? lane.compute : single;
    aclrtStream out = pipelined ? lane.out : single;
    std::vector<aclrtEvent> ends(kernels);
    for (std::uint32_t j = 0; j < kernels; ++j) ends[j] = event(events, index, first_kernel_end + j);

    // Copy-in into the slot once the kernels of the chunk before last have read it.
    if (pipelined && index >= 2) BENCH_ACL(aclrtStreamWaitEvent(in, event(events, index - 2, last_kernel_end)));
    BENCH_ACL(aclrtRecordEvent(event(events, index, h2d_start), in));
    BENCH_ACL(aclrtMemcpyAsync(buffers.slot_in[slot], bytes, lane.host_in + std::size_t(chunk) * bytes, bytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, in));
    BENCH_ACL(aclrtRecordEvent(event(events, index, h2d_end), in));

    // Compute once the chunk is in and the slot's outputs of the chunk before last are copied out.
    if (pipelined) {
        BENCH_ACL(aclrtStreamWaitEvent(compute, event(events, index, h2d_end)));
        if (index >= 2) BENCH_ACL(aclrtStreamWaitEvent(compute, event(events, index - 2, d2h_end)));
    }
    launch_chain(buffers, slot, compute, event(events, index, compute_start), ends.data());

    // Copy-out once the kernels are done.
    if (pipelined) BENCH_ACL(aclrtStreamWaitEvent(out, event(events, index, last_kernel_end)));
    void* result = kernels % 2 == 1 ? buffers.slot_a[slot] : buffers.slot_b[slot];
    BENCH_ACL(aclrtRecordEvent(event(events, index, d2h_start), out));
    BENCH_ACL(aclrtMemcpyAsync(lane.host_out + std::size_t(chunk) * bytes, bytes, result, bytes,
                               ACL_MEMCPY_DEVICE_TO_HOST, out));
    BENCH_ACL(aclrtRecordEvent(event(events, index, d2h_end), out));
}

void Pipeline::wait_for(Mode mode, std::uint32_t chunks) {
    const std::uint32_t d2h_end = first_kernel_end + static_cast<std::uint32_t>(options_.kernels.size()) + 1;
    if (progress_.enabled()) {
        // Chunks complete in order within a stream: poll each stream's next one.
        const std::uint64_t total = std::uint64_t(chunks) * options_.streams;
        std::vector<std::uint32_t> next(mode == Mode::pipelined ? options_.streams : 1, 0);
        const std::uint32_t per_queue = mode == Mode::pipelined ? chunks : chunks * options_.streams;
        std::uint64_t done = 0;
        while (done < total) {
            for (std::size_t q = 0; q < next.size(); ++q) {
                std::vector<aclrtEvent>& events = mode == Mode::pipelined ? lanes_[q]->events : single_events_;
                while (next[q] < per_queue) {
                    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
                    BENCH_ACL(aclrtQueryEventStatus(event(events, next[q], d2h_end), &status));
                    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) break;
                    ++next[q];
                    ++done;
                }
            }
            progress_.update(done);
            if (done < total) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    // Also where a failed operation reports its error.
    if (mode == Mode::one_stream) {
        use_device(0);
        BENCH_ACL(aclrtSynchronizeStream(single_));
        return;
    }
    for (Lane* lane : lanes_) {
        use_device(lane->device);
        for (aclrtStream stream : {lane->in, lane->compute, lane->out}) BENCH_ACL(aclrtSynchronizeStream(stream));
    }
}

RunTimes Pipeline::run(Mode mode, std::uint32_t chunks, const std::string& label) {
    // Poisoned outputs: a chunk that is never written fails verification.
    for (std::uint32_t s = 0; s < options_.streams; ++s) std::memset(output(s, 0), 0xff, std::size_t(chunks) * options_.chunk_bytes);
    progress_.begin(label);
    if (mode == Mode::pipelined) {
        // Device by device, and chunk-major within a device, so that the streams start together.
        for (std::uint32_t d = 0; d < options_.devices; ++d) {
            use_device(d);
            for (std::uint32_t i = 0; i < chunks; ++i) {
                for (std::uint32_t s = d; s < options_.streams; s += options_.devices) {
                    enqueue_chunk(*lanes_[s], i, mode, nullptr, lanes_[s]->events, i);
                }
            }
        }
    } else {
        use_device(0);
        std::uint64_t index = 0;
        for (std::uint32_t s = 0; s < options_.streams; ++s) {
            for (std::uint32_t i = 0; i < chunks; ++i) enqueue_chunk(*lanes_[s], i, mode, single_, single_events_, index++);
        }
    }
    wait_for(mode, chunks);
    progress_.end(std::uint64_t(chunks) * options_.streams);

    // Every time relative to one event: all events of the process share the steady clock.
    const std::uint32_t kernels = static_cast<std::uint32_t>(options_.kernels.size());
    RunTimes times;
    times.kernels.resize(kernels);
    aclrtEvent origin = mode == Mode::pipelined ? lanes_[0]->events[h2d_start] : single_events_[h2d_start];
    double first = 0, last = 0;
    bool any = false;
    auto at = [&](aclrtEvent e) {
        float ms = 0;
        BENCH_ACL(aclrtEventElapsedTime(&ms, origin, e));
        return double(ms);
    };
    auto collect = [&](std::vector<aclrtEvent>& events, std::uint64_t index) {
        std::vector<double> t(events_per_chunk_);
        for (std::uint32_t e = 0; e < events_per_chunk_; ++e) t[e] = at(event(events, index, e));
        const std::uint32_t d2h_start = first_kernel_end + kernels;
        times.h2d.push_back(t[h2d_end] - t[h2d_start]);
        for (std::uint32_t j = 0; j < kernels; ++j) {
            times.kernels[j].push_back(t[first_kernel_end + j] - t[j == 0 ? compute_start : first_kernel_end + j - 1]);
        }
        times.d2h.push_back(t[d2h_start + 1] - t[d2h_start]);
        times.chunk.push_back(t[d2h_start + 1] - t[h2d_start]);
        first = any ? std::min(first, t[h2d_start]) : t[h2d_start];
        last = any ? std::max(last, t[d2h_start + 1]) : t[d2h_start + 1];
        any = true;
    };
    if (mode == Mode::pipelined) {
        for (Lane* lane : lanes_) {
            for (std::uint32_t i = 0; i < chunks; ++i) collect(lane->events, i);
        }
    } else {
        for (std::uint64_t index = 0; index < std::uint64_t(chunks) * options_.streams; ++index) collect(single_events_, index);
    }
    times.span_ms = last - first;
    return times;
}

}  // namespace canopy_bench
