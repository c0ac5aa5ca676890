import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

// import-x/no-cycle always skips type-only imports (it has no option to count them), yet a cycle of
// types still ties two modules into one. This rule reports each type-only import whose module imports
// the linted file back, through imports of any kind; import-x/no-cycle reports every other cycle.

/** The source file endings an import's ending may stand for ('' is an import without an ending). */
const SOURCE_ENDINGS = {
  '.js': ['.ts', '.tsx', '.js'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
  '': ['.ts', '.tsx', '/index.ts', '/index.tsx'],
};

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The file a relative import names; null for a package, or a file that is not a module here. */
function resolveImport(importer, specifier) {
  if (!specifier.startsWith('.')) return null;
  const path = resolve(dirname(importer), specifier);
  const ending = /\.[cm]?js$/.exec(path)?.[0] ?? '';
  const stem = path.slice(0, path.length - ending.length);
  return SOURCE_ENDINGS[ending].map((sourceEnding) => stem + sourceEnding).find(isFile) ?? null;
}

const importsByFile = new Map();

/** The files a file imports, type-only imports included. */
function importsOf(file) {
  let imports = importsByFile.get(file);
  if (!imports) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // A file that cannot be read imports nothing.
    }
    imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map(({ fileName }) => resolveImport(file, fileName))
      .filter((path) => path !== null);
    importsByFile.set(file, imports);
  }
  return imports;
}

/** The files by which `start` imports `target`, `start` first; null when it does not. */
function importChain(start, target) {
  const seen = new Set([start]);
  let chains = [[start]];
  while (chains.length > 0) {
    const longer = [];
    for (const chain of chains) {
      for (const next of importsOf(chain[chain.length - 1])) {
        if (next === target) return chain;
        if (!seen.has(next)) {
          seen.add(next);
          longer.push([...chain, next]);
        }
      }
    }
    chains = longer;
  }
  return null;
}

const isTypeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 &&
    node.specifiers.every((specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type'));

export const noTypeImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a type-only import whose module imports this file back.' },
    schema: [],
    messages: {
      cycle:
        'Dependency cycle via {{chain}}: a cycle of types ties the modules together all the same; move the shared types to a module of their own.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const check = (node) => {
      if (!node.source || !isTypeOnly(node)) return;
      const imported = resolveImport(file, node.source.value);
      const chain = imported && importChain(imported, file);
      if (chain) {
        const names = chain.map((path) => relative(dirname(file), path));
        context.report({ node, messageId: 'cycle', data: { chain: names.join(' -> ') } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
