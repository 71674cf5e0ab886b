//===- Parser.h - recursive-descent parser for .tile ------------*- C++ -*-===//
#ifndef TILE_FRONTEND_PARSER_H
#define TILE_FRONTEND_PARSER_H

#include "tile/Frontend/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace tile {

/// Receives a parse error at a source position.
using ParseErrorFn = llvm::function_ref<void(SrcLoc, const llvm::Twine &)>;

/// Parses a whole .tile file. Stops at the first error, which it reports
/// through `onError`, and returns null.
std::unique_ptr<ast::Module> parseModule(llvm::StringRef source,
                                         ParseErrorFn onError);

} // namespace tile

#endif // TILE_FRONTEND_PARSER_H
