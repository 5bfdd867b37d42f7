#ifndef CANOPY_TEST_INSTALL_SCALE_TILING_H
#define CANOPY_TEST_INSTALL_SCALE_TILING_H
#include <cstdint>

// What the host computes for the scale kernel; passed by value to the kernel, so the generated
// launch function takes it by pointer, as CANN's does.
struct ScaleTiling {
    float factor;
    uint32_t elementsPerBlock;
};

#endif
