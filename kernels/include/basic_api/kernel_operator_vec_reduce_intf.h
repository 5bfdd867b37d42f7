#pragma once
// CANN's path for the reductions: ReduceSum / Max / Min, ReduceRepeat, ReduceDataBlock, ReducePairElem and
// their names before CANN 9.1 (WholeReduce*, BlockReduce*, PairReduceSum, RepeatReduceSum).
#include "canopy/kernel/ascendc/reduce.h"
