// canopy-launch-rewrite: finds every `kernel<<<...>>>(...)` launch of a translation unit with clang's
// own parser and writes the files that hold them, rewritten into C++, for the compile that follows.
//
//   canopy-launch-rewrite [--launch-functions=<dir>] [--pch=<file> --pch-prelude-lines=<n>]
//                         <overlay dir> <main source> -- <clang driver arguments...>
//   canopy-launch-rewrite --emit-pch=<file> <header> -- <clang driver arguments...>
//
// The translation unit is parsed once as CUDA host code (the one clang mode whose grammar has
// `<<<>>>`), with __CANOPY_LAUNCH_SCAN__ defined so that Canopy's headers spell __global__,
// __cube__ and __mix__ as attributes clang keeps in the AST. Every launch is found wherever it is
// written: in the source, in a header it includes, inside a template (once for the pattern, with the
// kernels of all its instantiations), on an overloaded kernel or on a template whose arguments are
// deduced. Each is rewritten in place, on its own line, as
//
//   ::canopy::kernel::ChevronLaunchAt(SITE, [](auto&&... a) { kernel(a...); }, numBlocks, ub, stream)(args)
//
// so that the compiler resolves the kernel exactly as it resolved the launch, and SITE carries what
// the launch needs to know of the kernels it may call: the name, their cores (__cube__, __mix__) and
// whether any of them waits for other blocks (SyncAll and the other cross-block waits, found by
// walking the calls of every instantiated kernel body). Non-template kernels defined in the main
// source are registered after their definitions (aclrtGetFuncBySymbol, aclrtBinaryGetFunction).
//
// Output: the rewritten files in <overlay dir> and <overlay dir>/overlay.yaml, a clang VFS overlay
// that puts them in place of the originals (so __FILE__, diagnostics and debug information still
// name the original file and line), or no overlay.yaml when nothing needed rewriting; and
// <overlay dir>/core-passes when the kernel code depends on the core type it is compiled for
// (g_coreType, __DAV_CUBE__ / __DAV_VEC__), so that canopy-asc compiles it once per core type.
// With --launch-functions=<dir>, every extern "C" kernel it registers also gets CANN's generated
// launch function, aclrtlaunch_<kernel>, declared in <dir>/aclrtlaunch_<kernel>.h (written when it
// changes) and defined after the kernel's registration (canopy_add_kernels' LAUNCH_HEADERS).
// With --pch the parse begins with canopy-asc's precompiled header and checks that it stands for what
// the source includes (PrecompiledHeaderCheck), writing <overlay dir>/pch-refused with the reason
// where it does not; --emit-pch writes such a header, parsed as a source is.
// The parse's own diagnostics are not shown (CUDA's host/device rules refuse what the compile accepts,
// such as a kernel calling printf, or a kernel's definition after its declaration), and there is no
// limit to them; the compile reports a source's errors. Exit status 1 for a launch
// this tool cannot rewrite (one written inside a macro).
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace clang;

// Ascend C's calls that wait for other blocks or cores: a kernel reaching one runs all its blocks at
// once (a cooperative launch), as on the NPU, where every block of such a kernel is resident.
bool waits_for_other_blocks(const FunctionDecl& function) {
    static const std::set<std::string> waits{"SyncAll", "IBWait", "WaitPreBlock", "CrossCoreWaitFlag", "GroupBarrier"};
    const IdentifierInfo* id = function.getIdentifier();
    if (id == nullptr || waits.count(id->getName().str()) == 0) return false;
    const DeclContext* context = function.getDeclContext()->getEnclosingNamespaceContext();
    const auto* ns = dyn_cast<NamespaceDecl>(context);
    return ns != nullptr && ns->getName() == "AscendC";
}

// Whether a call path from `root` reaches a cross-block wait; the bodies are those Sema instantiated.
class WaitFinder : public RecursiveASTVisitor<WaitFinder> {
public:
    bool reaches_wait(const FunctionDecl* root) {
        visit_function(root);
        return found_;
    }
    bool VisitCallExpr(CallExpr* call) {
        if (const FunctionDecl* callee = call->getDirectCallee()) visit_function(callee);
        return !found_;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr* construct) {
        visit_function(construct->getConstructor());
        return !found_;
    }

private:
    void visit_function(const FunctionDecl* function) {
        if (function == nullptr || found_ || !seen_.insert(function).second) return;
        if (waits_for_other_blocks(*function)) {
            found_ = true;
            return;
        }
        const FunctionDecl* definition = nullptr;
        if (Stmt* body = function->getBody(definition)) TraverseStmt(body);
    }
    std::set<const FunctionDecl*> seen_;
    bool found_ = false;
};

struct Cores {
    int aic = 0;
    int aiv = 1;
    bool mix = false;
    bool declared = false;  // by a qualifier or a Matmul registration, not left to the default
};

// Whether a kernel's own body registers a high-level Matmul (REGIST_MATMUL_OBJ, which expands to a
// call of AscendC::InitCurObj).
class MatmulRegistrationFinder : public RecursiveASTVisitor<MatmulRegistrationFinder> {
public:
    bool VisitCallExpr(CallExpr* call) {
        const FunctionDecl* callee = call->getDirectCallee();
        if (callee != nullptr && callee->getIdentifier() != nullptr && callee->getName() == "InitCurObj") found = true;
        return !found;
    }
    bool found = false;
};

// The cores a kernel declares: __cube__ (one AIC), __mix__(aic, aiv), else one AIV; a kernel without
// a qualifier that registers a high-level Matmul is a mix kernel, one AIC serving two AIVs, as CANN's
// compiler makes it, unless the source makes the Matmul cube-only (ASCENDC_CUBE_ONLY).
Cores cores_of(const FunctionDecl& kernel, ASTContext& context, bool cube_only) {
    const FunctionDecl* pattern = kernel.getTemplateInstantiationPattern();
    const FunctionDecl& declared = pattern != nullptr ? *pattern : kernel;
    Cores cores;
    for (const auto* annotation : declared.specific_attrs<AnnotateAttr>()) {
        if (annotation->getAnnotation() == "canopy_cube") {
            return Cores{1, 0, false, true};
        } else if (annotation->getAnnotation() == "canopy_mix" && annotation->args_size() == 2) {
            int counts[2] = {0, 0};
            int i = 0;
            for (Expr* arg : annotation->args()) {
                if (auto value = arg->getIntegerConstantExpr(context)) counts[i] = static_cast<int>(value->getExtValue());
                ++i;
            }
            return Cores{counts[0], counts[1], true, true};
        }
    }
    if (cores.aic == 0 && !cube_only && kernel.getBody() != nullptr) {
        MatmulRegistrationFinder finder;
        finder.TraverseStmt(kernel.getBody());
        if (finder.found) cores = Cores{1, 2, true, true};
    }
    return cores;
}

std::string c_string_literal(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += ' ';
            continue;
        }
        out += c;
    }
    return out + "\"";
}

// One launch site: the text positions of the pattern, and the kernels its instantiations call.
struct Site {
    SourceLocation callee_begin;
    SourceLocation open;   // `<<<`
    SourceLocation close;  // `>>>`
    std::string callee_text;
    bool cooperative = false;
    bool cores_known = false;
    Cores cores;
    // The one kernel every instantiation calls, when the site names a function that is not a template
    // nor overloaded: its address is the launch's symbol (aclrtGetFuncHandleFromExceptionInfo).
    const FunctionDecl* kernel = nullptr;
    bool one_kernel = true;
};

// `&::ns::kernel` for a kernel whose address the launch may name: not a template, not overloaded,
// reachable by its qualified name; else "".
std::string symbol_of(const FunctionDecl& kernel) {
    if (kernel.getTemplatedKind() != FunctionDecl::TK_NonTemplate || kernel.isInAnonymousNamespace()) return "";
    const DeclContext* context = kernel.getDeclContext()->getRedeclContext();
    if (!context->isFileContext()) return "";
    int overloads = 0;
    for (const NamedDecl* found : context->lookup(kernel.getDeclName())) {
        if (isa<FunctionDecl, FunctionTemplateDecl>(found)) ++overloads;
    }
    if (overloads != 1) return "";
    return "&::" + kernel.getQualifiedNameAsString();
}

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
    LaunchFinder(ASTContext& context, bool cube_only, std::map<unsigned, Site>& sites,
                 std::vector<std::string>& errors)
        : context_(context), sources_(context.getSourceManager()), cube_only_(cube_only), sites_(sites),
          errors_(errors) {}

    bool shouldVisitTemplateInstantiations() const { return true; }

    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* launch) {
        const CallExpr* config = launch->getConfig();
        if (config == nullptr) return true;
        SourceLocation open = config->getBeginLoc();
        SourceLocation close = config->getRParenLoc();
        SourceLocation callee_begin = launch->getCallee()->getBeginLoc();
        if (open.isMacroID() || close.isMacroID() || callee_begin.isMacroID()) {
            report(launch->getBeginLoc(), "a <<<>>> launch written inside a macro cannot be rewritten; write it out");
            return true;
        }
        Site& site = sites_[open.getRawEncoding()];
        if (site.callee_text.empty()) {
            site.callee_begin = callee_begin;
            site.open = open;
            site.close = close;
            site.callee_text = Lexer::getSourceText(CharSourceRange::getCharRange(callee_begin, open), sources_,
                                                    context_.getLangOpts())
                                   .str();
        }
        if (const FunctionDecl* kernel = launch->getDirectCallee()) {
            const FunctionDecl* canonical = kernel->getCanonicalDecl();
            if (site.kernel != nullptr && site.kernel != canonical) site.one_kernel = false;
            site.kernel = canonical;
            if (!site.cooperative) site.cooperative = WaitFinder().reaches_wait(kernel);
            Cores cores = cores_of(*kernel, context_, cube_only_);
            if (!site.cores_known) {
                site.cores = cores;
                site.cores_known = true;
            }
        }
        return true;
    }

private:
    void report(SourceLocation at, const std::string& what) {
        PresumedLoc where = sources_.getPresumedLoc(sources_.getExpansionLoc(at));
        errors_.push_back(std::string(where.getFilename()) + ":" + std::to_string(where.getLine()) + ": error: " + what);
    }
    ASTContext& context_;
    SourceManager& sources_;
    bool cube_only_;
    std::map<unsigned, Site>& sites_;
    std::vector<std::string>& errors_;
};

// A __global__ function defined in the main source outside any template, to register.
struct Definition {
    SourceLocation end;  // the closing brace
    std::string name;    // as the enclosing namespace names it
    std::string pointer_type;
    bool overloaded = false;
    bool cooperative = false;
    Cores cores;
    bool extern_c = false;
    // For CANN's launch function (--launch-functions): the parameters as host code passes them.
    std::vector<std::string> host_types;
};

class DefinitionFinder : public RecursiveASTVisitor<DefinitionFinder> {
public:
    DefinitionFinder(ASTContext& context, bool cube_only, std::vector<Definition>& definitions)
        : context_(context), cube_only_(cube_only), definitions_(definitions) {}

    bool VisitFunctionDecl(FunctionDecl* function) {
        SourceManager& sources = context_.getSourceManager();
        if (!function->hasAttr<CUDAGlobalAttr>() || !function->doesThisDeclarationHaveABody()) return true;
        if (function->isTemplated() || function->getTemplateSpecializationKind() != TSK_Undeclared) return true;
        if (!isa<NamespaceDecl, TranslationUnitDecl, LinkageSpecDecl>(function->getDeclContext())) return true;
        SourceLocation end = function->getBodyRBrace();
        if (end.isMacroID() || !sources.isInMainFile(end)) return true;
        Definition definition;
        definition.end = end;
        definition.name = function->getNameAsString();
        PrintingPolicy policy(context_.getLangOpts());
        policy.FullyQualifiedName = true;
        policy.SuppressScope = false;
        policy.PrintCanonicalTypes = true;
        definition.pointer_type = context_.getPointerType(function->getType()).getAsString(policy);
        auto lookup = function->getDeclContext()->getRedeclContext()->lookup(function->getDeclName());
        int overloads = 0;
        for (const NamedDecl* found : lookup) {
            if (isa<FunctionDecl, FunctionTemplateDecl>(found)) ++overloads;
        }
        definition.overloaded = overloads > 1;
        definition.cooperative = WaitFinder().reaches_wait(function);
        definition.cores = cores_of(*function, context_, cube_only_);
        definition.extern_c = function->isExternC();
        // As CANN's generated launch functions take them: a __gm__ pointer as void*, a scalar as
        // itself, a structure passed by value by pointer.
        PrintingPolicy written(context_.getLangOpts());
        written.SuppressTagKeyword = true;
        for (const ParmVarDecl* parameter : function->parameters()) {
            QualType type = parameter->getType().getUnqualifiedType();
            if (type->isPointerType()) definition.host_types.push_back("void*");
            else if (type->isBuiltinType()) definition.host_types.push_back(type.getAsString(written));
            else definition.host_types.push_back(type.getAsString(written) + "*");
        }
        definitions_.push_back(definition);
        return true;
    }

private:
    ASTContext& context_;
    bool cube_only_;
    std::vector<Definition>& definitions_;
};

// A __ubuf__ array the source declares (canopy/kernel/ub_array.h): `__ubuf__ T x[N]` in a function
// (a kernel, a __simd_vf__ or __simt_vf__ function, or what they call), static or not, and
// `extern __ubuf__ T x[]` anywhere. __ubuf__ expands to nothing, so a declaration is one when the
// word is written among its declaration specifiers, before its name.
struct UbufArray {
    SourceLocation specifiers;  // where its specifiers begin, `static` / `extern` included
    SourceLocation name;
    SourceLocation declarator_end;  // the last `]`
    std::string text;           // [specifiers, name) as written
    std::string identifier;
    bool dynamic = false;       // extern, of unknown bound
    bool local = false;
    bool single = true;         // the only declarator of its declaration
};

class UbufArrayFinder : public RecursiveASTVisitor<UbufArrayFinder> {
public:
    UbufArrayFinder(ASTContext& context, std::vector<UbufArray>& arrays, std::vector<std::string>& errors)
        : context_(context), sources_(context.getSourceManager()), arrays_(arrays), errors_(errors) {}

    bool VisitDeclStmt(DeclStmt* statement) {
        if (!statement->isSingleDecl()) {
            for (Decl* declaration : statement->decls()) multi_.insert(declaration);
        }
        return true;
    }

    bool VisitVarDecl(VarDecl* var) {
        if (isa<ParmVarDecl>(var) || !var->getType()->isArrayType()) return true;
        if (var->getTemplateSpecializationKind() == TSK_ImplicitInstantiation) return true;
        SourceLocation begin = var->getOuterLocStart();
        SourceLocation name = var->getLocation();
        if (begin.isInvalid() || name.isInvalid() || sources_.isInSystemHeader(sources_.getExpansionLoc(name))) {
            return true;
        }
        if (begin.isMacroID() || name.isMacroID()) {
            CharSourceRange range = sources_.getExpansionRange(SourceRange(begin, name));
            if (Lexer::getSourceText(range, sources_, context_.getLangOpts()).contains("__ubuf__")) {
                report(name, "a __ubuf__ array declared inside a macro cannot be placed in the UB; write it out");
            }
            return true;
        }
        // The words written before the specifiers clang records (which begin at the first word that is
        // not an empty macro): __ubuf__ itself, static, extern, ...
        FileID file = sources_.getFileID(begin);
        llvm::StringRef buffer = sources_.getBufferData(file);
        std::size_t start = sources_.getFileOffset(begin);
        static const std::set<std::string> words{"__ubuf__", "static", "extern", "const", "volatile",
                                                 "__aicore__", "inline", "constexpr", "thread_local"};
        for (;;) {
            std::size_t at = start;
            while (at > 0 && std::isspace(static_cast<unsigned char>(buffer[at - 1]))) --at;
            std::size_t word_end = at;
            while (at > 0 && (std::isalnum(static_cast<unsigned char>(buffer[at - 1])) || buffer[at - 1] == '_')) --at;
            if (at == word_end || words.count(buffer.substr(at, word_end - at).str()) == 0) break;
            start = at;
        }
        const std::size_t name_offset = sources_.getFileOffset(name);
        if (sources_.getFileID(name) != file || name_offset < start) return true;
        std::string text = buffer.substr(start, name_offset - start).str();
        if (!has_word(text, "__ubuf__")) return true;

        UbufArray array;
        array.specifiers = sources_.getLocForStartOfFile(file).getLocWithOffset(static_cast<int>(start));
        array.name = name;
        array.text = text;
        array.identifier = var->getNameAsString();
        array.local = var->getLexicalDeclContext()->isFunctionOrMethod();
        array.single = multi_.count(var) == 0;
        array.declarator_end = var->getTypeSourceInfo()->getTypeLoc().getEndLoc();
        if (array.declarator_end.isMacroID()) {
            report(name, "the bound of __ubuf__ array " + array.identifier +
                             " ends inside a macro; it cannot be placed in the UB");
            return true;
        }
        const Type* type = var->getType()->getAsArrayTypeUnsafe();
        array.dynamic = isa<IncompleteArrayType>(type);
        if (array.dynamic) {
            if (!var->hasExternalStorage()) {
                report(name, "__ubuf__ array " + array.identifier + " has no bound: only extern __ubuf__ T " +
                                 array.identifier + "[] (the launch's dynamic UB) may");
                return true;
            }
            if (!array.single) {
                report(name, "extern __ubuf__ array " + array.identifier +
                                 " must be the only name of its declaration to be bound to the dynamic UB");
                return true;
            }
        } else {
            if (!array.local) {
                report(name, "__ubuf__ array " + array.identifier +
                                 " is declared outside a function: Canopy places the fixed-size __ubuf__ arrays "
                                 "that kernels and the functions they call declare");
                return true;
            }
            // An element type with a constructor has an implicit one (not written): the UB is not
            // constructed into, on the NPU either.
            const auto* construct = dyn_cast_or_null<CXXConstructExpr>(var->getInit());
            const bool written = var->hasInit() && (construct == nullptr || construct->getParenOrBraceRange().isValid());
            if (written) {
                report(name, "__ubuf__ array " + array.identifier + " has an initializer; the UB is not initialized "
                             "by a declaration: fill it with the kernel's copies or vector instructions");
                return true;
            }
            if (var->hasExternalStorage()) return true;  // a block-scope extern of a fixed array: a redeclaration
        }
        if (!seen_.insert(name.getRawEncoding()).second) return true;
        arrays_.push_back(array);
        return true;
    }

    static bool has_word(const std::string& text, const std::string& word) {
        for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
            bool before = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
            std::size_t end = at + word.size();
            bool after = end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
            if (before && after) return true;
        }
        return false;
    }

private:
    void report(SourceLocation at, const std::string& what) {
        PresumedLoc where = sources_.getPresumedLoc(sources_.getExpansionLoc(at));
        errors_.push_back(std::string(where.getFilename()) + ":" + std::to_string(where.getLine()) + ": error: " + what);
    }
    ASTContext& context_;
    SourceManager& sources_;
    std::vector<UbufArray>& arrays_;
    std::vector<std::string>& errors_;
    std::set<const Decl*> multi_;
    std::set<unsigned> seen_;
};

// Blanks each whole `word` of `text` (spaces, so that columns keep their place).
std::string blank_word(std::string text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        bool before = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
        std::size_t end = at + word.size();
        bool after = end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
        if (before && after) text.replace(at, word.size(), std::string(word.size(), ' '));
    }
    return text;
}

// The site's symbol field: `, reinterpret_cast<const void*>(&::kernel)`, or nothing (null).
std::string symbol_literal(const Site& site) {
    if (site.kernel == nullptr || !site.one_kernel) return "";
    std::string symbol = symbol_of(*site.kernel);
    return symbol.empty() ? "" : ", reinterpret_cast<const void*>(" + symbol + ")";
}

std::string cores_literal(const Cores& cores) {
    return "::canopy::kernel::KernelCores{" + std::to_string(cores.aic) + ", " + std::to_string(cores.aiv) + ", " +
           (cores.mix ? "true" : "false") + "}";
}

// Whether the source's kernel code depends on the core type it is compiled for: it names g_coreType
// or asks whether __DAV_CUBE__ / __DAV_VEC__ (or their __DAV_C220_ / __DAV_C310_ spellings) are defined. Such a
// source is compiled once per core type (canopy-core-link).
class CoreTypeUse : public PPCallbacks {
public:
    explicit CoreTypeUse(bool& used) : used_(used) {}
    void Ifdef(SourceLocation, const Token& name, const MacroDefinition&) override { check(name); }
    void Ifndef(SourceLocation, const Token& name, const MacroDefinition&) override { check(name); }
    void Defined(const Token& name, const MacroDefinition&, SourceRange) override { check(name); }
    void Elifdef(SourceLocation, const Token& name, const MacroDefinition&) override { check(name); }
    void Elifndef(SourceLocation, const Token& name, const MacroDefinition&) override { check(name); }

private:
    void check(const Token& name) {
        static const std::set<std::string> per_core{"__DAV_CUBE__",      "__DAV_VEC__",      "__DAV_C220_CUBE__",
                                                    "__DAV_C220_VEC__", "__DAV_C310_CUBE__", "__DAV_C310_VEC__"};
        if (const IdentifierInfo* id = name.getIdentifierInfo()) used_ = used_ || per_core.count(id->getName().str());
    }
    bool& used_;
};

// Whether the precompiled header the parse began with (--pch: canopy-asc's, of canopy/kernel/launch.h,
// the main source's leading directives and kernel_operator.h) stands for what the source includes
// itself: the source reaches that same kernel_operator.h, and before it no file of the source's
// (outside the system headers) defines or undefines a macro, other than an include guard or one of
// the main source's leading directives (its first `prelude_lines` lines), which the precompiled
// header repeats. Otherwise kernel_operator.h would have been read without a macro the source sets
// first (K_MAX_SHAPE_DIM, ASCENDC_CUBE_ONLY, ...), and canopy-asc parses and compiles without it.
class PrecompiledHeaderCheck : public PPCallbacks {
public:
    PrecompiledHeaderCheck(const SourceManager& sources, unsigned prelude_lines, std::string& refusal)
        : sources_(sources), prelude_lines_(prelude_lines), refusal_(refusal) {}

    void InclusionDirective(SourceLocation, const Token&, StringRef name, bool, CharSourceRange,
                            OptionalFileEntryRef, StringRef, StringRef, const Module*,
                            SrcMgr::CharacteristicKind) override {
        if (!done() && llvm::sys::path::filename(name) == "kernel_operator.h") awaiting_ = true;
    }
    void FileSkipped(const FileEntryRef&, const Token&, SrcMgr::CharacteristicKind) override {
        if (awaiting_) reached_ = true;
        awaiting_ = false;
    }
    void FileChanged(SourceLocation, FileChangeReason reason, SrcMgr::CharacteristicKind, FileID) override {
        if (awaiting_ && reason == EnterFile) refuse("the source includes a kernel_operator.h other than Canopy's");
        awaiting_ = false;
    }
    void Ifndef(SourceLocation at, const Token& name, const MacroDefinition&) override {
        if (!done() && name.getIdentifierInfo() != nullptr) guards_[sources_.getFileID(at)] = name.getIdentifierInfo();
    }
    void MacroDefined(const Token& name, const MacroDirective* directive) override {
        const MacroInfo* macro = directive->getMacroInfo();
        auto guard = guards_.find(sources_.getFileID(directive->getLocation()));
        bool include_guard = guard != guards_.end() && guard->second == name.getIdentifierInfo() &&
                             macro != nullptr && macro->getNumTokens() == 0;
        if (!include_guard) check(directive->getLocation(), "defines", name);
    }
    void MacroUndefined(const Token& name, const MacroDefinition&, const MacroDirective*) override {
        check(name.getLocation(), "undefines", name);
    }
    void EndOfMainFile() override {
        if (!done()) refuse("the source does not include kernel_operator.h");
    }

private:
    bool done() const { return reached_ || !refusal_.empty(); }
    void refuse(const std::string& why) {
        if (refusal_.empty()) refusal_ = why;
    }
    // A macro (un)defined before kernel_operator.h, where the source wrote it.
    void check(SourceLocation at, const char* what, const Token& name) {
        if (done() || at.isInvalid() || sources_.isLoadedSourceLocation(at) ||
            sources_.isWrittenInBuiltinFile(at) || sources_.isWrittenInCommandLineFile(at) ||
            sources_.isInSystemHeader(at)) {
            return;
        }
        if (sources_.isInMainFile(at) && sources_.getSpellingLineNumber(at) <= prelude_lines_) return;
        PresumedLoc where = sources_.getPresumedLoc(at);
        refuse(std::string(where.getFilename()) + ":" + std::to_string(where.getLine()) + " " + what + " " +
               name.getIdentifierInfo()->getName().str() + " before including kernel_operator.h");
    }
    const SourceManager& sources_;
    unsigned prelude_lines_;
    std::string& refusal_;
    std::map<FileID, const IdentifierInfo*> guards_;
    bool awaiting_ = false;
    bool reached_ = false;
};

class CoreTypeReference : public RecursiveASTVisitor<CoreTypeReference> {
public:
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitDeclRefExpr(DeclRefExpr* reference) {
        const ValueDecl* declaration = reference->getDecl();
        if (declaration->getIdentifier() != nullptr && declaration->getName() == "g_coreType" &&
            declaration->getDeclContext()->getRedeclContext()->isTranslationUnit()) {
            found = true;
        }
        return !found;
    }
    bool found = false;
};

// Visits the declarations the translation unit's own text made: with a precompiled header, not the
// ones read back from it (Canopy's headers, which hold no launch and no kernel), so that the walk does
// not load the whole header's AST.
template <typename Visitor>
void traverse_own_declarations(Visitor&& visitor, ASTContext& context) {
    for (Decl* declaration : context.getTranslationUnitDecl()->noload_decls()) {
        if (!declaration->isFromASTFile()) visitor.TraverseDecl(declaration);
    }
}

class RewriteConsumer : public ASTConsumer {
public:
    RewriteConsumer(Preprocessor& preprocessor, const bool& core_type_used, std::string overlay_dir,
                    std::string launch_functions, const std::set<std::string>& filtered, bool& wrote,
                    std::vector<std::string>& errors)
        : preprocessor_(preprocessor), core_type_used_(core_type_used), overlay_dir_(std::move(overlay_dir)),
          launch_functions_(std::move(launch_functions)), filtered_(filtered), wrote_(wrote), errors_(errors) {}

    void HandleTranslationUnit(ASTContext& context) override {
        // The parse's errors are not the source's: kernel code calls host functions that CUDA's rules
        // refuse (printf from <stdio.h>), which the compile that follows accepts. What this parse
        // finds is rewritten; a source that is wrong fails that compile with clang's diagnostics.
        CoreTypeReference reference;
        traverse_own_declarations(reference, context);
        if (core_type_used_ || reference.found) std::ofstream(overlay_dir_ + "/core-passes") << "AIC AIV\n";
        const bool cube_only = preprocessor_.isMacroDefined("ASCENDC_CUBE_ONLY");
        std::map<unsigned, Site> sites;
        traverse_own_declarations(LaunchFinder(context, cube_only, sites, errors_), context);
        std::vector<Definition> definitions;
        traverse_own_declarations(DefinitionFinder(context, cube_only, definitions), context);
        std::vector<UbufArray> ubuf_arrays;
        traverse_own_declarations(UbufArrayFinder(context, ubuf_arrays, errors_), context);
        if (!errors_.empty() || (sites.empty() && definitions.empty() && filtered_.empty() && ubuf_arrays.empty())) {
            return;
        }

        Rewriter rewriter(context.getSourceManager(), context.getLangOpts());
        SourceManager& sources = context.getSourceManager();
        for (const std::string& path : filtered_) {
            if (auto file = sources.getFileManager().getOptionalFileRef(path)) {
                rewriter.getEditBuffer(sources.getOrCreateFileID(*file, SrcMgr::C_User));
            }
        }
        for (const auto& [key, site] : sites) {
            const std::string forward = "static_cast<decltype(canopy_arg)&&>(canopy_arg)...";
            std::string head = "::canopy::kernel::ChevronLaunchAt(::canopy::kernel::ChevronSite{" +
                               c_string_literal(trim(site.callee_text)) + ", " +
                               (site.cooperative ? "true" : "false") + ", " +
                               (site.cores.declared ? "true" : "false") + ", " + cores_literal(site.cores) +
                               symbol_literal(site) + "}, [](auto&&... canopy_arg) { " + site.callee_text + "(" + forward + "); }, ";
            rewriter.ReplaceText(CharSourceRange::getCharRange(site.callee_begin, site.open.getLocWithOffset(3)), head);
            rewriter.ReplaceText(CharSourceRange::getCharRange(site.close, site.close.getLocWithOffset(3)), ")");
        }
        for (const UbufArray& array : ubuf_arrays) rewrite_ubuf_array(rewriter, array);
        int counter = 0;
        for (const Definition& definition : definitions) {
            std::string symbol = definition.overloaded
                                     ? "static_cast<" + definition.pointer_type + ">(&" + definition.name + ")"
                                     : "&" + definition.name;
            std::string registration = " [[maybe_unused]] static ::canopy::kernel::KernelRegistrar<" + symbol +
                                       "> canopy_kernel_registrar_" + std::to_string(counter++) + "(" +
                                       c_string_literal(definition.name) + ", " +
                                       (definition.cooperative ? "true" : "false") + ", " +
                                       cores_literal(definition.cores) + ");";
            if (!launch_functions_.empty() && definition.extern_c) {
                registration += launch_function(definition);
            }
            rewriter.InsertTextAfterToken(definition.end, registration);
        }
        write_overlay(rewriter, context.getSourceManager());
    }

private:
    // A __ubuf__ array, in place (canopy/kernel/ub_array.h): `__ubuf__ T x[N]` becomes
    // `__ubuf__ T (&x)[N] = ::canopy::kernel::ub_array([] {}, "x")` (a static one loses `static`:
    // its place is per block); `extern __ubuf__ T x[]` becomes
    // `static constexpr ::canopy::kernel::UbDynamic<__ubuf__ T []> x{"x"}` (`inline constexpr` outside
    // a function).
    void rewrite_ubuf_array(Rewriter& rewriter, const UbufArray& array) {
        const std::string name = c_string_literal(array.identifier);
        const SourceLocation after_name = array.name.getLocWithOffset(static_cast<int>(array.identifier.size()));
        if (array.dynamic) {
            SourceManager& sources = rewriter.getSourceMgr();
            const std::string bounds =
                Lexer::getSourceText(CharSourceRange::getCharRange(
                                         after_name, Lexer::getLocForEndOfToken(array.declarator_end, 0, sources,
                                                                                rewriter.getLangOpts())),
                                     sources, rewriter.getLangOpts())
                    .str();
            const std::string element = blank_word(blank_word(array.text, "extern"), "static");
            rewriter.ReplaceText(
                CharSourceRange::getTokenRange(array.specifiers, array.declarator_end),
                std::string(array.local ? "static constexpr" : "inline constexpr") +
                    " ::canopy::kernel::UbDynamic<" + trim(element) + " " + bounds + "> " + array.identifier + "{" +
                    name + "}");
            return;
        }
        const std::string unstatic = blank_word(array.text, "static");
        for (std::size_t at = 0; at < unstatic.size(); ++at) {
            if (unstatic[at] == array.text[at]) continue;
            const SourceLocation word = array.specifiers.getLocWithOffset(static_cast<int>(at));
            if (blanked_.insert(word.getRawEncoding()).second) rewriter.ReplaceText(word, 6, "      ");
            at += 5;
        }
        rewriter.InsertTextBefore(array.name, "(&");
        rewriter.InsertTextAfter(after_name, ")");
        rewriter.InsertTextAfterToken(array.declarator_end, " = ::canopy::kernel::ub_array([] {}, " + name + ")");
    }

    // CANN's generated launch function of an extern "C" kernel, `uint32_t aclrtlaunch_<kernel>(uint32_t
    // numBlocks, aclrtStream stream, args...)`: declared in <launch functions dir>/aclrtlaunch_<kernel>.h
    // (plain C++ over acl/acl_base.h, for host code that does not see the kernel) and defined, as the
    // returned text, after the kernel.
    std::string launch_function(const Definition& definition) {
        const std::string& name = definition.name;
        std::string declared;
        std::string forwarded;
        for (std::size_t i = 0; i < definition.host_types.size(); ++i) {
            declared += ", " + definition.host_types[i] + " arg" + std::to_string(i);
            forwarded += ", arg" + std::to_string(i);
        }
        std::string guard;
        for (char c : name) guard += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        std::string header = "// Generated by canopy-launch-rewrite: the launch function of kernel " + name + ".\n";
        header += "#ifndef CANOPY_ACLRTLAUNCH_" + guard + "_H\n#define CANOPY_ACLRTLAUNCH_" + guard + "_H\n";
        header += "#include <stdint.h>\n\n#include \"acl/acl_base.h\"\n\n";
        header += "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n\n";
        header += "// Enqueues " + name + " on `stream` with numBlocks blocks; returns 0 or the aclError.\n";
        header += "extern \"C\" uint32_t aclrtlaunch_" + name + "(uint32_t numBlocks, aclrtStream stream" + declared +
                  ");\n\n#endif\n";
        const std::string path = launch_functions_ + "/aclrtlaunch_" + name + ".h";
        std::string existing;
        if (auto buffer = llvm::MemoryBuffer::getFile(path)) existing = (*buffer)->getBuffer().str();
        if (existing != header) {
            std::ofstream out(path);
            out << header;
            if (!out) errors_.push_back("cannot write " + path);
        }
        // aclrtStream is void*; the definition does not need acl_base.h.
        return " extern \"C\" ::std::uint32_t aclrtlaunch_" + name + "(::std::uint32_t numBlocks, void* stream" +
               declared + ") { return ::canopy::kernel::WrapperLaunch<&" + name + ">(" + c_string_literal(name) +
               ")(numBlocks, stream" + forwarded + "); }";
    }

    static std::string trim(const std::string& text) {
        std::size_t begin = text.find_first_not_of(" \t\n");
        std::size_t end = text.find_last_not_of(" \t\n");
        return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
    }

    void write_overlay(Rewriter& rewriter, SourceManager& sources) {
        std::string yaml = "{ 'version': 0, 'use-external-names': false, 'roots': [\n";
        int index = 0;
        for (auto it = rewriter.buffer_begin(); it != rewriter.buffer_end(); ++it) {
            OptionalFileEntryRef entry = sources.getFileEntryRefForID(it->first);
            if (!entry) continue;
            llvm::SmallString<256> original(entry->getName());
            llvm::sys::fs::make_absolute(original);
            llvm::sys::path::remove_dots(original, true);
            std::string copy = overlay_dir_ + "/" + std::to_string(index++) + "-" +
                               llvm::sys::path::filename(original).str();
            std::error_code error;
            llvm::raw_fd_ostream out(copy, error);
            if (error) {
                errors_.push_back("cannot write " + copy + ": " + error.message());
                return;
            }
            it->second.write(out);
            if (index > 1) yaml += ",\n";
            yaml += "  { 'type': 'file', 'name': " + yaml_string(original.str().str()) +
                    ", 'external-contents': " + yaml_string(copy) + " }";
        }
        yaml += "\n] }\n";
        std::ofstream(overlay_dir_ + "/overlay.yaml") << yaml;
        wrote_ = true;
    }

    static std::string yaml_string(const std::string& text) {
        std::string out = "'";
        for (char c : text) {
            if (c == '\'') out += '\'';
            out += c;
        }
        return out + "'";
    }

    Preprocessor& preprocessor_;
    std::set<unsigned> blanked_;  // the `static` words of __ubuf__ arrays already blanked
    const bool& core_type_used_;
    std::string overlay_dir_;
    std::string launch_functions_;
    const std::set<std::string>& filtered_;
    bool& wrote_;
    std::vector<std::string>& errors_;
};

class RewriteAction : public ASTFrontendAction {
public:
    RewriteAction(std::string overlay_dir, std::string launch_functions, const std::set<std::string>& filtered,
                  std::optional<unsigned> pch_prelude_lines, bool& wrote, std::vector<std::string>& errors,
                  std::string& pch_refusal)
        : overlay_dir_(std::move(overlay_dir)), launch_functions_(std::move(launch_functions)), filtered_(filtered),
          pch_prelude_lines_(pch_prelude_lines), wrote_(wrote), errors_(errors), pch_refusal_(pch_refusal) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& compiler, llvm::StringRef) override {
        compiler.getPreprocessor().addPPCallbacks(std::make_unique<CoreTypeUse>(core_type_used_));
        if (pch_prelude_lines_) {
            compiler.getPreprocessor().addPPCallbacks(std::make_unique<PrecompiledHeaderCheck>(
                compiler.getSourceManager(), *pch_prelude_lines_, pch_refusal_));
        }
        return std::make_unique<RewriteConsumer>(compiler.getPreprocessor(), core_type_used_, overlay_dir_,
                                                 launch_functions_, filtered_, wrote_, errors_);
    }

private:
    bool core_type_used_ = false;
    std::string overlay_dir_;
    std::string launch_functions_;
    const std::set<std::string>& filtered_;
    std::optional<unsigned> pch_prelude_lines_;
    bool& wrote_;
    std::vector<std::string>& errors_;
    std::string& pch_refusal_;
};

// Writes the precompiled header the parse of a source begins with (--emit-pch).
class EmitPrecompiledHeader : public GeneratePCHAction {
public:
    explicit EmitPrecompiledHeader(std::string path) : path_(std::move(path)) {}
    bool BeginInvocation(CompilerInstance& compiler) override {
        compiler.getFrontendOpts().OutputFile = path_;
        return GeneratePCHAction::BeginInvocation(compiler);
    }

private:
    std::string path_;
};

// bisheng's function attribute lists, `__forceinline__[host, aicore] void f()` or `[aicore] int g()`:
// not C++, so every file the compile reads is given to clang with them blanked (spaces, so that no
// column or line moves), and the files that had any go to the overlay as well. A list is only taken
// where a declaration can start: after one of the specifier words below or at the start of a line,
// so that `table[host]` stays a subscript.
class AttributeListFilter : public llvm::vfs::ProxyFileSystem {
public:
    explicit AttributeListFilter(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base)
        : ProxyFileSystem(std::move(base)) {}

    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
        auto file = ProxyFileSystem::openFileForRead(path);
        if (!file) return file;
        auto status = (*file)->status();
        auto buffer = (*file)->getBuffer(path);
        if (!status || !buffer) return file;
        std::string text = (*buffer)->getBuffer().str();
        if (!blank_attribute_lists(text)) {
            // Reopen: the buffer was consumed.
            return ProxyFileSystem::openFileForRead(path);
        }
        filtered_.insert(path.str());
        return std::unique_ptr<llvm::vfs::File>(
            new FilteredFile(*status, llvm::MemoryBuffer::getMemBufferCopy(text, path.str())));
    }

    const std::set<std::string>& filtered() const { return filtered_; }

private:
    class FilteredFile : public llvm::vfs::File {
    public:
        FilteredFile(llvm::vfs::Status status, std::unique_ptr<llvm::MemoryBuffer> buffer)
            : status_(std::move(status)), buffer_(std::move(buffer)) {}
        llvm::ErrorOr<llvm::vfs::Status> status() override { return status_; }
        llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t, bool,
                                                                   bool) override {
            return llvm::MemoryBuffer::getMemBufferCopy(buffer_->getBuffer(), name.str());
        }
        std::error_code close() override { return {}; }

    private:
        llvm::vfs::Status status_;
        std::unique_ptr<llvm::MemoryBuffer> buffer_;
    };

    static bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

    // Blanks each `[host]`, `[aicore]`, `[host, aicore]`, `[aicore, host]` in declaration position.
    static bool blank_attribute_lists(std::string& text) {
        static const std::set<std::string> after{"__forceinline__", "inline", "static", "constexpr", "__aicore__",
                                                 "__inline__", "extern", "template", "friend", "virtual"};
        bool changed = false;
        for (std::size_t open = text.find('['); open != std::string::npos; open = text.find('[', open + 1)) {
            std::size_t close = text.find(']', open);
            if (close == std::string::npos) break;
            std::string inside = text.substr(open + 1, close - open - 1);
            bool list = !inside.empty();
            std::size_t at = 0;
            while (list && at < inside.size()) {
                std::size_t comma = inside.find(',', at);
                std::string word = inside.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
                word.erase(0, word.find_first_not_of(" \t"));
                word.erase(word.find_last_not_of(" \t") + 1);
                list = word == "host" || word == "aicore";
                at = comma == std::string::npos ? inside.size() : comma + 1;
            }
            if (!list) continue;
            std::size_t before = open;
            while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
            bool declaration_start = before == 0 || text[before - 1] == '\n';
            if (!declaration_start && is_word(text[before - 1])) {
                std::size_t word_begin = before;
                while (word_begin > 0 && is_word(text[word_begin - 1])) --word_begin;
                declaration_start = after.count(text.substr(word_begin, before - word_begin)) != 0;
            }
            if (!declaration_start) continue;
            for (std::size_t i = open; i <= close; ++i) {
                if (text[i] != '\n') text[i] = ' ';
            }
            changed = true;
        }
        return changed;
    }

    std::set<std::string> filtered_;
};

}  // namespace

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: canopy-launch-rewrite [--launch-functions=<dir>] [--pch=<file> --pch-prelude-lines=<n>] "
                 "<overlay dir> <source> -- <clang arguments...>\n"
                 "       canopy-launch-rewrite --emit-pch=<file> <header> -- <clang arguments...>\n");
    return 2;
}

// The clang command the parse runs, for `source` with the caller's arguments.
std::vector<std::string> parse_command(const std::vector<std::string>& arguments, const std::string& source) {
    std::vector<std::string> command{CANOPY_KERNEL_CLANG, "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                                     "-fsyntax-only", "-D__CANOPY_LAUNCH_SCAN__", "-U__CUDA__", "-U__CUDACC__",
                                     // Not clang's CUDA wrappers of the standard headers (they need the
                                     // CUDA runtime's), only its own headers, as C++ compiles see them.
                                     "-nobuiltininc", "-isystem", CANOPY_CLANG_RESOURCE_DIR "/include",
                                     "-Xclang", "-fcuda-allow-variadic-functions", "-Wno-everything",
                                     // The parse's errors are not shown, and none may stop it: each
                                     // redeclaration of a kernel (a definition after its declaration
                                     // in an extern "C" { } block of a header) is refused as __global__
                                     // against the host and device that force_cuda_host_device gave
                                     // the first, though the AST keeps the kernel __global__.
                                     "-ferror-limit=0",
                                     "-resource-dir", CANOPY_CLANG_RESOURCE_DIR};
    command.insert(command.end(), arguments.begin(), arguments.end());
    command.push_back(source);
    return command;
}

}  // namespace

int main(int argc, char** argv) {
    // --launch-functions=<dir>: also CANN's launch function of every extern "C" kernel the source
    // defines, declared in <dir>/aclrtlaunch_<kernel>.h and defined after the kernel.
    // --pch=<file>, --pch-prelude-lines=<n>: the parse begins with canopy-asc's precompiled header
    // (PrecompiledHeaderCheck); <overlay dir>/pch-refused says why, when it does not stand for the source.
    // --emit-pch=<file>: writes that precompiled header, of <header>, parsed as a source is.
    std::string launch_functions;
    std::string pch;
    std::string emit_pch;
    std::optional<unsigned> pch_prelude_lines;
    int at = 1;
    for (; at < argc && std::string(argv[at]).rfind("--", 0) == 0 && std::string(argv[at]) != "--"; ++at) {
        const std::string option = argv[at];
        const std::string value = option.substr(option.find('=') + 1);
        if (option.rfind("--launch-functions=", 0) == 0) launch_functions = value;
        else if (option.rfind("--pch=", 0) == 0) pch = value;
        else if (option.rfind("--pch-prelude-lines=", 0) == 0) pch_prelude_lines = std::stoul(value);
        else if (option.rfind("--emit-pch=", 0) == 0) emit_pch = value;
        else return usage();
    }
    std::vector<std::string> positional(argv + at, argv + argc);
    const std::size_t dashes = std::find(positional.begin(), positional.end(), "--") - positional.begin();
    IgnoringDiagConsumer quiet;

    if (!emit_pch.empty()) {
        if (dashes != 1) return usage();
        std::vector<std::string> command =
            parse_command(std::vector<std::string>(positional.begin() + 2, positional.end()), positional[0]);
        command.insert(command.end() - 1, {"-Xclang", "-fpch-instantiate-templates", "-Xclang", "-fno-pch-timestamp"});
        auto files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions());
        tooling::ToolInvocation invocation(command, std::make_unique<EmitPrecompiledHeader>(emit_pch), files.get());
        invocation.setDiagnosticConsumer(&quiet);
        return invocation.run() && llvm::sys::fs::exists(emit_pch) ? 0 : 1;
    }

    if (dashes != 2 || pch.empty() != !pch_prelude_lines.has_value()) return usage();
    if (!launch_functions.empty()) llvm::sys::fs::create_directories(launch_functions);
    llvm::SmallString<256> absolute_overlay(positional[0]);
    llvm::sys::fs::make_absolute(absolute_overlay);
    const std::string overlay_dir = absolute_overlay.str().str();
    std::vector<std::string> arguments(positional.begin() + 3, positional.end());
    if (!pch.empty()) arguments.insert(arguments.begin(), {"-include-pch", pch});
    std::vector<std::string> command = parse_command(arguments, positional[1]);

    bool wrote = false;
    std::vector<std::string> errors;
    std::string pch_refusal;
    auto filter = llvm::makeIntrusiveRefCnt<AttributeListFilter>(llvm::vfs::getRealFileSystem());
    auto files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), filter);
    tooling::ToolInvocation invocation(command,
                                       std::make_unique<RewriteAction>(overlay_dir, launch_functions,
                                                                       filter->filtered(), pch_prelude_lines, wrote,
                                                                       errors, pch_refusal),
                                       files.get());
    invocation.setDiagnosticConsumer(&quiet);
    invocation.run();
    if (!pch_refusal.empty()) std::ofstream(overlay_dir + "/pch-refused") << pch_refusal << "\n";
    for (const std::string& error : errors) std::fprintf(stderr, "%s\n", error.c_str());
    return errors.empty() ? 0 : 1;
}
