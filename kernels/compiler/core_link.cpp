// canopy-core-link: joins the two core-type compilations of one source into one module, as bisheng
// joins a kernel's AIC and AIV code into one object.
//
//   canopy-core-link <aiv.bc> <aic.bc> <out.bc>
//
// bisheng compiles the kernel code of a mixed source once for the cube core and once for the vector
// core, with g_coreType, ASCEND_IS_AIC / ASCEND_IS_AIV and __DAV_CUBE__ / __DAV_VEC__ constant in each;
// canopy-asc does the same when a source depends on them (canopy-launch-rewrite says so), compiling
// the whole source twice to bitcode. In each compilation a launch refers to two entries of its kernel,
// canopy::kernel::detail::aic_entry<...> and aiv_entry<...>, and defines the one of its own core type
// (canopy/kernel/launch.h). Both compilations define both entries alike (a kernel launched from a
// function such as main() names a type without linkage, which C++ lets no other translation unit
// define), and this tool:
//   - keeps the vector compilation whole but for its AIC entries, which become references: it holds
//     the host code, the AIV entries and everything the program shares (global variables, what the
//     host defines);
//   - takes from the cube compilation only its AIC entries and what they call: its functions become
//     internal, so that an inline function compiled for the cube (where g_coreType is AIC) never
//     replaces the vector one of the same name; its global variables stay shared, its static
//     constructors are dropped (the host's ran already);
//   - decides each kernel's cores as bisheng's kernel-type inference does: a kernel whose two flavours
//     are the same code does not depend on the core type and is an AIV kernel, as in a source compiled
//     once; otherwise a flavour does work when it reaches a call into the runtime or a store to memory
//     that is not its own stack; both do work: a mix kernel of one AIC and two AIVs; only the cube
//     flavour: an AIC kernel; else an AIV kernel;
//   - notes whether either flavour waits for other cores (then all run at once);
//   - registers those cores with the runtime (canopy_register_core_split, at load; unregistered at
//     unload), keyed by the AIV entry the launch names.
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <cstdio>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

namespace {

// The mangled names of canopy::kernel::detail::aic_entry / aiv_entry: equally long, so that the two
// entries of one launch differ only there.
constexpr const char* aic_marker = "9aic_entry";
constexpr const char* aiv_marker = "9aiv_entry";
constexpr const char* entry_prefix = "_ZN6canopy6kernel6detail";

bool is_entry(const llvm::Function& function, const char* marker) {
    return function.getName().startswith(std::string(entry_prefix) + marker);
}

std::unique_ptr<llvm::Module> load(const char* path, llvm::LLVMContext& context) {
    llvm::SMDiagnostic error;
    std::unique_ptr<llvm::Module> module = llvm::parseIRFile(path, error, context);
    if (!module) error.print("canopy-core-link", llvm::errs());
    return module;
}

// Whether an instruction `found` accepts is reachable from `entry` through the functions its module
// defines: those it calls, and those it names (catlass calls some through pointers).
template <class Found>
bool reaches(llvm::Function& entry, Found found) {
    llvm::SmallPtrSet<llvm::Function*, 32> seen;
    std::vector<llvm::Function*> pending{&entry};
    while (!pending.empty()) {
        llvm::Function* function = pending.back();
        pending.pop_back();
        if (!seen.insert(function).second) continue;
        for (llvm::Instruction& instruction : llvm::instructions(*function)) {
            if (found(instruction)) return true;
            for (llvm::Value* operand : instruction.operand_values()) {
                auto* named = llvm::dyn_cast<llvm::Function>(operand->stripPointerCasts());
                if (named != nullptr && !named->isDeclaration()) pending.push_back(named);
            }
        }
    }
    return false;
}

bool outside_the_stack(llvm::Value* pointer) {
    return !llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer));
}

// Whether a flavour does work: reaches a call of a function defined elsewhere (the runtime, the C
// library) or through a pointer, or a store to memory that is not a stack slot of its own.
bool does_work(llvm::Function& entry) {
    return reaches(entry, [](llvm::Instruction& instruction) {
        if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
            return outside_the_stack(store->getPointerOperand());
        }
        if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(instruction)) return true;
        auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (call == nullptr || llvm::isa<llvm::DbgInfoIntrinsic, llvm::LifetimeIntrinsic>(call)) return false;
        llvm::Function* callee = call->getCalledFunction();
        if (callee == nullptr) return true;  // through a pointer: assume it works
        if (auto* transfer = llvm::dyn_cast<llvm::AnyMemIntrinsic>(call)) {
            return outside_the_stack(transfer->getRawDest());
        }
        return !callee->isIntrinsic() && callee->isDeclaration();
    });
}

// Whether two flavours of a kernel are the same code: the same functions reached under the same
// names, instruction by instruction the same operations on the same types, operands and callees.
// Debug locations are not compared; the entries' own names differ by construction.
class SameCode {
public:
    bool operator()(llvm::Function& vector_entry, llvm::Function& cube_entry) {
        pending_.push_back({&vector_entry, &cube_entry});
        while (!pending_.empty()) {
            auto [left, right] = pending_.back();
            pending_.pop_back();
            if (!seen_.insert(left).second) continue;
            if (!same_function(*left, *right)) return false;
        }
        return true;
    }

private:
    bool same_function(llvm::Function& left, llvm::Function& right) {
        if (left.isDeclaration() != right.isDeclaration() || left.getFunctionType() != right.getFunctionType()) {
            return false;
        }
        if (left.isDeclaration()) return left.getName() == right.getName();
        if (left.size() != right.size()) return false;
        std::map<const llvm::Value*, const llvm::Value*> matched;
        for (auto [left_arg, right_arg] : llvm::zip(left.args(), right.args())) matched[&left_arg] = &right_arg;
        for (auto [left_block, right_block] : llvm::zip(left, right)) {
            matched[&left_block] = &right_block;
            if (left_block.size() != right_block.size()) return false;
            for (auto [a, b] : llvm::zip(left_block, right_block)) matched[&a] = &b;
        }
        for (auto [left_block, right_block] : llvm::zip(left, right)) {
            for (auto [a, b] : llvm::zip(left_block, right_block)) {
                if (a.getOpcode() != b.getOpcode() || a.getType() != b.getType() ||
                    a.getNumOperands() != b.getNumOperands()) {
                    return false;
                }
                if (auto* compare = llvm::dyn_cast<llvm::CmpInst>(&a)) {
                    if (compare->getPredicate() != llvm::cast<llvm::CmpInst>(b).getPredicate()) return false;
                }
                for (unsigned i = 0; i < a.getNumOperands(); ++i) {
                    if (!same_operand(a.getOperand(i), b.getOperand(i), matched)) return false;
                }
            }
        }
        return true;
    }

    bool same_operand(const llvm::Value* a, const llvm::Value* b,
                      const std::map<const llvm::Value*, const llvm::Value*>& matched) {
        if (a->getType() != b->getType()) return false;
        auto found = matched.find(a);
        if (found != matched.end()) return found->second == b;
        if (auto* left = llvm::dyn_cast<llvm::Function>(a)) {
            auto* right = llvm::dyn_cast<llvm::Function>(b);
            if (right == nullptr || left->getName() != right->getName()) return false;
            pending_.push_back({const_cast<llvm::Function*>(left), const_cast<llvm::Function*>(right)});
            return true;
        }
        if (auto* left = llvm::dyn_cast<llvm::GlobalValue>(a)) {
            auto* right = llvm::dyn_cast<llvm::GlobalValue>(b);
            return right != nullptr && left->getName() == right->getName();
        }
        if (llvm::isa<llvm::MetadataAsValue>(a)) return llvm::isa<llvm::MetadataAsValue>(b);
        if (auto* left = llvm::dyn_cast<llvm::ConstantExpr>(a)) {
            auto* right = llvm::dyn_cast<llvm::ConstantExpr>(b);
            if (right == nullptr || left->getOpcode() != right->getOpcode() ||
                left->getNumOperands() != right->getNumOperands()) {
                return false;
            }
            for (unsigned i = 0; i < left->getNumOperands(); ++i) {
                if (!same_operand(left->getOperand(i), right->getOperand(i), matched)) return false;
            }
            return true;
        }
        if (llvm::isa<llvm::Constant>(a)) return a == b || (llvm::isa<llvm::Constant>(b) && print(a) == print(b));
        return false;
    }

    static std::string print(const llvm::Value* value) {
        std::string text;
        llvm::raw_string_ostream out(text);
        value->print(out);
        return text;
    }

    std::vector<std::pair<llvm::Function*, llvm::Function*>> pending_;
    llvm::SmallPtrSet<llvm::Function*, 32> seen_;
};

// Whether a flavour waits for other blocks or cores: reaches (by a call, or by naming a function it
// may call through a pointer) one of the runtime's waits, which every
// Ascend C wait (SyncAll, CrossCoreWaitFlag, IBWait, WaitPreBlock, GroupBarrier) comes down to
// (canopy/kernel/block.h). Such a kernel runs all its cores at once, as on the NPU.
bool waits_for_other_cores(llvm::Function& entry) {
    static const std::set<std::string> waits{"_ZN6canopy6kernel8sync_allEv", "_ZN6canopy6kernel17poll_other_blocksEv",
                                             "_ZN6canopy6kernel20cross_core_wait_flagEt"};
    return reaches(entry, [](llvm::Instruction& instruction) {
        for (llvm::Value* operand : instruction.operand_values()) {
            auto* named = llvm::dyn_cast<llvm::Function>(operand->stripPointerCasts());
            if (named != nullptr && waits.count(named->getName().str()) != 0) return true;
        }
        return false;
    });
}

// The cube compilation reduced to its AIC entries and what they call, all internal but the entries.
void keep_only_aic_entries(llvm::Module& aic) {
    for (const char* list : {"llvm.global_ctors", "llvm.global_dtors"}) {
        if (llvm::GlobalVariable* table = aic.getNamedGlobal(list)) table->eraseFromParent();
    }
    for (llvm::Function& function : aic) {
        if (function.isDeclaration()) continue;
        function.setComdat(nullptr);
        if (is_entry(function, aic_marker)) {
            function.setLinkage(llvm::GlobalValue::ExternalLinkage);
            function.setVisibility(llvm::GlobalValue::HiddenVisibility);
        } else {
            function.setLinkage(llvm::GlobalValue::InternalLinkage);
        }
    }
    for (llvm::GlobalAlias& alias : aic.aliases()) alias.setLinkage(llvm::GlobalValue::InternalLinkage);
    // The program's variables are the vector compilation's: the cube's definitions of them become
    // references (inline ones merge at the join).
    for (llvm::GlobalVariable& variable : aic.globals()) {
        if (!variable.isDeclaration() && variable.hasExternalLinkage()) {
            variable.setInitializer(nullptr);
            variable.setComdat(nullptr);
        }
    }
    llvm::ModuleAnalysisManager analyses;
    llvm::PassBuilder builder;
    builder.registerModuleAnalyses(analyses);
    llvm::GlobalDCEPass().run(aic, analyses);
}

struct Split {
    llvm::Function* aiv_entry;
    std::uint8_t aic;
    std::uint8_t aiv;
    bool mix;
    bool cooperative = false;
};

// A table of {AIV entry, aic, aiv, mix, cooperative} and the static constructor and destructor that hand it to
// the runtime (kernels/src/registry.cpp).
void register_splits(llvm::Module& module, const std::vector<Split>& splits) {
    llvm::LLVMContext& context = module.getContext();
    llvm::Type* pointer = llvm::PointerType::get(context, 0);
    llvm::Type* byte = llvm::Type::getInt8Ty(context);
    llvm::StructType* entry_type = llvm::StructType::get(context, {pointer, byte, byte, byte, byte});
    std::vector<llvm::Constant*> rows;
    for (const Split& split : splits) {
        rows.push_back(llvm::ConstantStruct::get(
            entry_type, {split.aiv_entry, llvm::ConstantInt::get(byte, split.aic),
                         llvm::ConstantInt::get(byte, split.aiv), llvm::ConstantInt::get(byte, split.mix ? 1 : 0),
                         llvm::ConstantInt::get(byte, split.cooperative ? 1 : 0)}));
    }
    llvm::ArrayType* table_type = llvm::ArrayType::get(entry_type, rows.size());
    auto* table = new llvm::GlobalVariable(module, table_type, true, llvm::GlobalValue::InternalLinkage,
                                           llvm::ConstantArray::get(table_type, rows), "canopy_core_split_table");
    llvm::Type* size = llvm::Type::getInt64Ty(context);
    llvm::FunctionType* hook_type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer, size}, false);
    llvm::FunctionType* init_type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
    for (bool load : {true, false}) {
        llvm::FunctionCallee hook = module.getOrInsertFunction(
            load ? "canopy_register_core_split" : "canopy_unregister_core_split", hook_type);
        llvm::Function* init = llvm::Function::Create(init_type, llvm::GlobalValue::InternalLinkage,
                                                      load ? "canopy_core_split_load" : "canopy_core_split_unload",
                                                      module);
        llvm::IRBuilder<> build(llvm::BasicBlock::Create(context, "entry", init));
        build.CreateCall(hook, {table, llvm::ConstantInt::get(size, rows.size())});
        build.CreateRetVoid();
        if (load) llvm::appendToGlobalCtors(module, init, 65535);
        else llvm::appendToGlobalDtors(module, init, 65535);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: canopy-core-link <aiv.bc> <aic.bc> <out.bc>\n");
        return 2;
    }
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> aiv = load(argv[1], context);
    std::unique_ptr<llvm::Module> aic = load(argv[2], context);
    if (!aiv || !aic) return 1;

    // Each AIV entry with its AIC twin, and what each flavour does, before the modules are joined.
    std::map<std::string, llvm::Function*> aic_entries;
    for (llvm::Function& function : *aic) {
        if (!function.isDeclaration() && is_entry(function, aic_marker)) {
            aic_entries[function.getName().str()] = &function;
        }
    }
    std::vector<std::pair<std::string, Split>> pending;
    for (llvm::Function& function : *aiv) {
        if (function.isDeclaration() || !is_entry(function, aiv_marker)) continue;
        std::string twin = function.getName().str();
        twin.replace(twin.find(aiv_marker), std::string(aiv_marker).size(), aic_marker);
        auto found = aic_entries.find(twin);
        if (found == aic_entries.end()) {
            std::fprintf(stderr, "canopy-core-link: %s has no cube flavour: the source's host code differs between its "
                                 "core-type compilations\n", function.getName().str().c_str());
            return 1;
        }
        Split split{nullptr, 0, 1, false};
        if (!SameCode()(function, *found->second)) {
            const bool cube_works = does_work(*found->second);
            const bool vector_works = does_work(function);
            if (cube_works && vector_works) split = Split{nullptr, 1, 2, true};
            else if (cube_works) split = Split{nullptr, 1, 0, false};
        }
        split.cooperative = waits_for_other_cores(function) || waits_for_other_cores(*found->second);
        pending.emplace_back(function.getName().str(), split);
    }

    keep_only_aic_entries(*aic);
    for (llvm::Function& function : *aiv) {
        if (function.isDeclaration() || !is_entry(function, aic_marker)) continue;
        function.deleteBody();
        function.setComdat(nullptr);
        function.setLinkage(llvm::GlobalValue::ExternalLinkage);
        function.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    if (llvm::Linker::linkModules(*aiv, std::move(aic))) {
        std::fprintf(stderr, "canopy-core-link: joining the core-type compilations failed\n");
        return 1;
    }
    std::vector<Split> splits;
    for (auto& [name, split] : pending) {
        split.aiv_entry = aiv->getFunction(name);
        splits.push_back(split);
    }
    if (!splits.empty()) register_splits(*aiv, splits);
    if (llvm::verifyModule(*aiv, &llvm::errs())) return 1;

    std::error_code error;
    llvm::raw_fd_ostream out(argv[3], error);
    if (error) {
        std::fprintf(stderr, "canopy-core-link: cannot write %s: %s\n", argv[3], error.message().c_str());
        return 1;
    }
    llvm::WriteBitcodeToFile(*aiv, out);
    return 0;
}
