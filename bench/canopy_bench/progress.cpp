#include "progress.h"

#include <algorithm>
#include <cstdio>

#include <unistd.h>

namespace canopy_bench {

Progress::Progress(std::uint64_t total) : enabled_(isatty(STDERR_FILENO) != 0), total_(std::max<std::uint64_t>(total, 1)) {}

Progress::~Progress() { clear(); }

void Progress::begin(const std::string& label) {
    label_ = label;
    last_width_ = -1;
    draw(0);
}

void Progress::update(std::uint64_t done) { draw(done); }

void Progress::end(std::uint64_t chunks) {
    draw(chunks);
    base_ += chunks;
}

void Progress::clear() {
    if (!enabled_ || !drawn_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
}

void Progress::draw(std::uint64_t done) {
    if (!enabled_) return;
    constexpr int width = 40;
    const std::uint64_t overall = std::min(total_, base_ + done);
    const int filled = static_cast<int>(overall * width / total_);
    // Redrawing an unchanged bar would only load the terminal.
    if (filled == last_width_ && done != 0) return;
    last_width_ = filled;
    std::fprintf(stderr, "\r\033[K[%.*s%*s] %3d%% %s", filled, "########################################",
                 width - filled, "", static_cast<int>(overall * 100 / total_), label_.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

}  // namespace canopy_bench
