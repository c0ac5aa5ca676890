import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// House rule 13: no module-level mutable state in the gateway. What lives as long as a gateway is
// built in composition and passed down, so two gateways in one process (tests, the desktop app)
// never share a cache, a counter or a pending request. cli.ts, the process's entry point, may hold
// some (today it holds none), and nothing else does.
const ALLOWED: string[] = [];

const root = resolve(import.meta.dirname, '../../..');
const src = join(root, 'gateway/src');

/** Methods that change the collection or array they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
const COLLECTION_MUTATORS = new Set(['set', 'add', 'delete', 'clear']);
const MUTABLE_COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
/** Classes whose instances hold nothing that changes. */
const STATELESS_CLASSES = new Set([
  'TextEncoder',
  'TextDecoder',
  'RegExp',
  'URL',
  'Intl.NumberFormat',
  'Intl.Collator',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isTypeAssertionExpression(current) ||
    ts.isNonNullExpression(current)
  )
    current = current.expression;
  return current;
}

/**
 * Every module-level declaration in gateway/src whose value can change while the process runs, as
 * `path: name (why)`: a `let` or `var`; an empty Map/Set/WeakMap/WeakSet (made to be filled); an
 * instance of a library class, or of a gateway class with fields that change; a class's writable
 * static field; or a constant whose contents some module changes (assigns a property, pushes, sets,
 * deletes). Constant tables (literals, collections made from them) and frozen data are not listed.
 */
function moduleLevelMutableState(): string[] {
  const files = sourceFiles(src);
  const { config } = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const findings: string[] = [];
  const constants = new Map<ts.Symbol, { file: string; name: string }>();
  const where = (node: ts.Node) => relative(src, node.getSourceFile().fileName);

  const isMutableCollection = (type: ts.Type): boolean =>
    type.isUnion()
      ? type.types.some(isMutableCollection)
      : MUTABLE_COLLECTIONS.has(type.getSymbol()?.getName() ?? type.aliasSymbol?.getName() ?? '');

  /** Why an instance made at module level holds state that changes; undefined when it does not. */
  const mutableInstance = (made: ts.NewExpression): string | undefined => {
    const className = made.expression.getText();
    // A collection typed read-only (ReadonlyMap, ReadonlySet) cannot be changed through its name.
    if (STATELESS_CLASSES.has(className) || MUTABLE_COLLECTIONS.has(className)) return undefined;
    const declaration = checker.getTypeAtLocation(made).getSymbol()?.valueDeclaration;
    if (!declaration || !ts.isClassDeclaration(declaration) || !declaration.getSourceFile().fileName.startsWith(src))
      return `an instance of ${className}`;
    const fields = declaration.members.flatMap((member): (ts.PropertyDeclaration | ts.ParameterDeclaration)[] =>
      ts.isPropertyDeclaration(member)
        ? [member]
        : ts.isConstructorDeclaration(member)
          ? member.parameters.filter(
              (parameter) => ts.getCombinedModifierFlags(parameter) & ts.ModifierFlags.ParameterPropertyModifier,
            )
          : [],
    );
    const changing = fields.some((field) => {
      const modifiers = ts.getCombinedModifierFlags(field);
      if (modifiers & ts.ModifierFlags.Static) return false;
      return !(modifiers & ts.ModifierFlags.Readonly) || isMutableCollection(checker.getTypeAtLocation(field.name));
    });
    return changing ? `an instance of ${className}, whose fields change` : undefined;
  };

  for (const file of files) {
    const source = program.getSourceFile(file);
    // A file removed since the folder was read (another test's probe).
    if (!source) continue;
    for (const statement of source.statements) {
      if (ts.isVariableStatement(statement)) {
        const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
        for (const declaration of statement.declarationList.declarations) {
          const names = ts.isIdentifier(declaration.name)
            ? [declaration.name]
            : declaration.name.elements.flatMap((element) =>
                ts.isBindingElement(element) && ts.isIdentifier(element.name) ? [element.name] : [],
              );
          for (const name of names) {
            const found = (why: string) => findings.push(`${where(name)}: ${name.text} (${why})`);
            if (!isConst) {
              found('a module-level let or var');
              continue;
            }
            const type = checker.getTypeAtLocation(name);
            const value = declaration.initializer && unwrap(declaration.initializer);
            const made = value && ts.isNewExpression(value) ? value : undefined;
            if (isMutableCollection(type) && !(made?.arguments && made.arguments.length > 0)) {
              found('a mutable collection');
              continue;
            }
            if (made && !isMutableCollection(type)) {
              const why = mutableInstance(made);
              if (why) {
                found(why);
                continue;
              }
            }
            // A table (a literal, or a collection made from one): listed only if some module changes it.
            const symbol = checker.getSymbolAtLocation(name);
            if (symbol) constants.set(symbol, { file: where(name), name: name.text });
          }
        }
      } else if (ts.isClassDeclaration(statement)) {
        for (const member of statement.members) {
          if (!ts.isPropertyDeclaration(member)) continue;
          const modifiers = ts.getCombinedModifierFlags(member);
          if (!(modifiers & ts.ModifierFlags.Static)) continue;
          const field = `${statement.name?.text ?? 'class'}.${member.name.getText(source)}`;
          if (!(modifiers & ts.ModifierFlags.Readonly))
            findings.push(`${where(member)}: ${field} (a writable static field)`);
          else if (isMutableCollection(checker.getTypeAtLocation(member.name)))
            findings.push(`${where(member)}: ${field} (a mutable collection)`);
        }
      }
    }
  }

  // Constants whose contents some module changes.
  const names = new Set([...constants.values()].map((constant) => constant.name));
  const mutated = new Set<ts.Symbol>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && names.has(node.text)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol && constants.has(symbol) && changesContents(node)) mutated.add(symbol);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source) visit(source);
  }
  for (const symbol of mutated) {
    const { file, name } = constants.get(symbol)!;
    findings.push(`${file}: ${name} (its contents are changed)`);
  }
  return findings.sort();
}

/** Whether an identifier is the root of a property assignment, a delete, an increment or a mutating call. */
function changesContents(identifier: ts.Identifier): boolean {
  let access: ts.Expression = identifier;
  let lastName: string | undefined;
  while (
    (ts.isPropertyAccessExpression(access.parent) || ts.isElementAccessExpression(access.parent)) &&
    access.parent.expression === access
  ) {
    access = access.parent;
    lastName = ts.isPropertyAccessExpression(access) ? access.name.text : undefined;
  }
  if (access === identifier) return false;
  const parent = access.parent;
  if (
    ts.isBinaryExpression(parent) &&
    parent.left === access &&
    parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  )
    return true;
  if (ts.isDeleteExpression(parent)) return true;
  if (
    (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) &&
    (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)
  )
    return true;
  return (
    ts.isCallExpression(parent) &&
    parent.expression === access &&
    lastName !== undefined &&
    (MUTATORS.has(lastName) || COLLECTION_MUTATORS.has(lastName))
  );
}

describe('module-level state', () => {
  it('lists no mutable module-level state in gateway/src outside the allowed entry points', () => {
    expect(moduleLevelMutableState()).toEqual(ALLOWED);
  });
});
