#include "canopy/engine/context.h"

#include "canopy/engine/device.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

Context::Context(Device& device)
    : device_(device), default_stream_(std::make_unique<Stream>(*this, Stream::greatest_priority, 0)) {}

Context::~Context() = default;

}  // namespace canopy::engine
