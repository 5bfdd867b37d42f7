#pragma once
// A progress bar on stderr, drawn only when stderr is a terminal, so that piped or logged output
// holds the results alone.
#include <cstdint>
#include <string>

namespace canopy_bench {

class Progress {
public:
    // `total`: the chunks of all runs together.
    explicit Progress(std::uint64_t total);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    bool enabled() const { return enabled_; }
    // A run starts; its chunks are counted from here on.
    void begin(const std::string& label);
    // `done` chunks of the current run have completed.
    void update(std::uint64_t done);
    // The current run has completed `chunks` chunks.
    void end(std::uint64_t chunks);
    // Erases the bar.
    void clear();

private:
    void draw(std::uint64_t done);

    bool enabled_;
    std::uint64_t total_;
    std::uint64_t base_ = 0;
    std::string label_;
    int last_width_ = -1;
    bool drawn_ = false;
};

}  // namespace canopy_bench
