// libcanopy-kernel-passes: the LLVM passes canopy-asc loads into clang (-fpass-plugin) for the code it
// compiles.
//
// unwind-through-noexcept: a fault of Canopy's kernel API is an exception that fails the launch
// (the launcher catches it). Raised where C++ calls terminate, in a destructor or another noexcept
// function (catlass's blocks wait for their events in their destructors), it would end the process
// instead. So the landing pads that call terminate become cleanups that go on unwinding: the fault
// reaches the launcher and fails the launch with its message, as the same misuse elsewhere does.
//
// npu-scalar-division: an AI Core's scalar unit divides by zero without trapping; kernels rely on it
// (catlass's grouped matmuls compute `GetBlockIdx() % kTileCount` before a loop that a group with no
// K skips). An x86 division by zero, or of the most negative integer by -1, raises SIGFPE and kills
// the process. So every integer division or remainder whose divisor is not a constant other than 0
// and -1 is guarded: it divides by 1 instead and yields, for a zero divisor, the convention RISC-V
// defines (a quotient of all ones, the dividend as remainder), and for the overflowing signed case
// the wrapped result (the dividend negated, remainder 0).
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

#include <vector>

namespace {

bool needs_guard(const llvm::BinaryOperator& division) {
    const auto* divisor = llvm::dyn_cast<llvm::Constant>(division.getOperand(1));
    if (divisor == nullptr) return true;
    if (divisor->isZeroValue()) return true;
    const bool is_signed =
        division.getOpcode() == llvm::Instruction::SDiv || division.getOpcode() == llvm::Instruction::SRem;
    return is_signed && divisor->isAllOnesValue();
}

void guard(llvm::BinaryOperator& division) {
    llvm::IRBuilder<> build(&division);
    llvm::Type* type = division.getType();
    llvm::Value* dividend = division.getOperand(0);
    llvm::Value* divisor = division.getOperand(1);
    const llvm::Instruction::BinaryOps op = division.getOpcode();
    const bool is_signed = op == llvm::Instruction::SDiv || op == llvm::Instruction::SRem;
    const bool is_remainder = op == llvm::Instruction::URem || op == llvm::Instruction::SRem;

    llvm::Value* zero = build.CreateICmpEQ(divisor, llvm::Constant::getNullValue(type));
    llvm::Value* special = zero;
    llvm::Value* overflow = nullptr;
    if (is_signed) {
        const unsigned bits = type->getScalarSizeInBits();
        llvm::Value* minimum = llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(bits));
        overflow = build.CreateAnd(build.CreateICmpEQ(dividend, minimum),
                                   build.CreateICmpEQ(divisor, llvm::Constant::getAllOnesValue(type)));
        special = build.CreateOr(zero, overflow);
    }
    llvm::Value* safe_divisor = build.CreateSelect(special, llvm::ConstantInt::get(type, 1), divisor);
    llvm::Value* result = build.CreateBinOp(op, dividend, safe_divisor, division.getName());
    // MIN / -1 wraps to MIN, the dividend; its remainder is 0.
    llvm::Value* on_zero = is_remainder ? dividend : llvm::Constant::getAllOnesValue(type);
    if (overflow != nullptr) {
        llvm::Value* on_overflow = is_remainder ? llvm::Constant::getNullValue(type) : dividend;
        result = build.CreateSelect(overflow, on_overflow, result);
    }
    result = build.CreateSelect(zero, on_zero, result);
    division.replaceAllUsesWith(result);
    division.eraseFromParent();
}

// A landing pad that catches everything to call terminate (what clang emits for a noexcept function)
// made a cleanup that resumes unwinding.
bool unwind_instead_of_terminate(llvm::BasicBlock& block) {
    auto* pad = llvm::dyn_cast<llvm::LandingPadInst>(block.getFirstNonPHI());
    if (pad == nullptr || pad->getNumClauses() != 1 || !pad->isCatch(0)) return false;
    if (!llvm::isa<llvm::ConstantPointerNull>(pad->getClause(0))) return false;
    llvm::CallInst* terminate = nullptr;
    for (llvm::Instruction& instruction : block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
        llvm::Function* callee = call != nullptr ? call->getCalledFunction() : nullptr;
        if (callee != nullptr &&
            (callee->getName() == "__clang_call_terminate" || callee->getName() == "_ZSt9terminatev")) {
            terminate = call;
            break;
        }
    }
    if (terminate == nullptr) return false;
    llvm::LandingPadInst* cleanup = llvm::LandingPadInst::Create(pad->getType(), 0, "", pad);
    cleanup->setCleanup(true);
    pad->replaceAllUsesWith(cleanup);
    // Everything from the terminate call on goes; the pad resumes instead.
    while (&block.back() != terminate) block.back().eraseFromParent();
    terminate->eraseFromParent();
    llvm::ResumeInst::Create(cleanup, &block);
    pad->eraseFromParent();
    // The values the terminate path computed from the pad (its exception pointer) are unused now.
    for (auto it = block.begin(); it != block.end();) {
        llvm::Instruction& instruction = *it++;
        if (llvm::isa<llvm::ExtractValueInst>(instruction) && instruction.use_empty()) instruction.eraseFromParent();
    }
    return true;
}

struct UnwindThroughNoexcept : llvm::PassInfoMixin<UnwindThroughNoexcept> {
    llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager&) {
        bool changed = false;
        for (llvm::BasicBlock& block : function) changed |= unwind_instead_of_terminate(block);
        if (changed) function.removeFnAttr(llvm::Attribute::NoUnwind);
        return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
    }
    static bool isRequired() { return true; }
};

struct ScalarDivision : llvm::PassInfoMixin<ScalarDivision> {
    llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager&) {
        std::vector<llvm::BinaryOperator*> divisions;
        for (llvm::Instruction& instruction : llvm::instructions(function)) {
            auto* binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
            if (binary == nullptr) continue;
            switch (binary->getOpcode()) {
                case llvm::Instruction::UDiv:
                case llvm::Instruction::SDiv:
                case llvm::Instruction::URem:
                case llvm::Instruction::SRem:
                    if (needs_guard(*binary)) divisions.push_back(binary);
                    break;
                default: break;
            }
        }
        for (llvm::BinaryOperator* division : divisions) guard(*division);
        return divisions.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
    }
    static bool isRequired() { return true; }  // also at -O0
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
    return {LLVM_PLUGIN_API_VERSION, "canopy-kernel-passes", "1", [](llvm::PassBuilder& builder) {
                builder.registerPipelineStartEPCallback([](llvm::ModulePassManager& passes, llvm::OptimizationLevel) {
                    passes.addPass(llvm::createModuleToFunctionPassAdaptor(ScalarDivision()));
                    passes.addPass(llvm::createModuleToFunctionPassAdaptor(UnwindThroughNoexcept()));
                });
            }};
}
