/**
 * Reads the shape of the source with the TypeScript compiler's parser: which local modules each file
 * imports, and how many lines each function spans. tests/domain/code_shape_test.ts checks both.
 */
import ts from "typescript";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A parsed source file, its path relative to the repository root ("src/server/db.ts"). */
export interface SourceFile {
  path: string;
  ast: ts.SourceFile;
}

const parsed = new Map<string, SourceFile[]>();

/** Every .ts and .tsx file under `dir` (relative to the repository root), parsed once per run. */
export function sourceFiles(dir: string): SourceFile[] {
  const cached = parsed.get(dir);
  if (cached) return cached;
  const files = listSources(dir).map((path) => {
    const text = Deno.readTextFileSync(ROOT + path);
    const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    return { path, ast: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind) };
  });
  parsed.set(dir, files);
  return files;
}

function listSources(dir: string): string[] {
  const paths: string[] = [];
  for (const entry of Deno.readDirSync(ROOT + dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) paths.push(...listSources(path));
    else if (entry.isFile && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) paths.push(path);
  }
  return paths.sort();
}

// ---------------------------------------------------------------------------------------------
// The module graph

/** The module specifiers a file names: imports and re-exports (type-only ones too) and import(). */
function specifiers(ast: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    } else if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return found;
}

/** path → the local files (under `dir`) it imports, by relative specifiers. */
export function moduleGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(dir);
  const known = new Set(files.map((file) => file.path));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of specifiers(file.ast)) {
      if (!specifier.startsWith(".")) continue;
      const target = new URL(specifier, `file:///${file.path}`).pathname.slice(1);
      if (known.has(target)) targets.add(target);
    }
    graph.set(file.path, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function tangledComponents(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return components;
}

/** A report stays readable: past this many cycles in one tangle, the rest are counted, not listed. */
const MAX_CYCLES_PER_COMPONENT = 20;

/**
 * Every elementary cycle among the local files under `dir`, each as "a → b → … → a" starting from its
 * alphabetically first file. Within each tangle, a cycle is searched from each file through files that
 * sort after it only, so each cycle is found once.
 */
export function importCycles(dir: string): string[] {
  const graph = moduleGraph(dir);
  const cycles: string[] = [];
  for (const component of tangledComponents(graph)) {
    const members = new Set(component);
    const found: string[][] = [];
    for (const start of component) {
      const walk = (path: string[]): void => {
        for (const next of graph.get(path.at(-1)!) ?? []) {
          if (found.length > MAX_CYCLES_PER_COMPONENT) return;
          if (next === start) found.push([...path, start]);
          else if (members.has(next) && next > start && !path.includes(next)) walk([...path, next]);
        }
      };
      walk([start]);
    }
    cycles.push(...found.slice(0, MAX_CYCLES_PER_COMPONENT).map((cycle) => cycle.join(" → ")));
    if (found.length > MAX_CYCLES_PER_COMPONENT) {
      cycles.push(`… and more cycles among ${component.join(", ")}`);
    }
  }
  return cycles;
}

// ---------------------------------------------------------------------------------------------
// Function lengths

/** A function-like node: its stable name within its file and the lines it spans. */
export interface FunctionSpan {
  /** "path:name", e.g. "src/server/auth/routes.ts:authRoutes > app.post(\"/login\")". */
  key: string;
  lines: number;
}

function isFunctionLike(node: ts.Node): node is ts.SignatureDeclaration & { body?: ts.Node } {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node);
}

function propertyName(
  name: ts.PropertyName | ts.BindingName | undefined,
  ast: ts.SourceFile,
): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isPrivateIdentifier(name)) return name.text;
  return name.getText(ast);
}

/** The name a reader would look for: the declaration's, the variable or property it is assigned to, or the call it is passed to. */
function functionName(node: ts.Node, ast: ts.SourceFile): string {
  const line = ast.getLineAndCharacterOfPosition(node.getStart(ast)).line + 1;
  if (ts.isConstructorDeclaration(node)) return `${className(node.parent, ast)}.constructor`;
  if (
    ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)
  ) {
    const prefix = ts.isGetAccessorDeclaration(node)
      ? "get "
      : ts.isSetAccessorDeclaration(node)
      ? "set "
      : "";
    const owner = ts.isClassLike(node.parent) ? `${className(node.parent, ast)}.` : "";
    return `${prefix}${owner}${propertyName(node.name, ast)}`;
  }
  if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) && node.name) return node.name.text;
  let holder: ts.Node = node.parent;
  while (
    ts.isParenthesizedExpression(holder) || ts.isAsExpression(holder) || ts.isSatisfiesExpression(holder)
  ) {
    holder = holder.parent;
  }
  if (
    ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)
  ) {
    return propertyName(holder.name, ast) ?? `<anonymous@${line}>`;
  }
  if (
    ts.isCallExpression(holder) &&
    holder.arguments.some((argument) => argument === node || contains(argument, node))
  ) {
    const first = holder.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? `(${JSON.stringify(first.text)})` : "(…)";
    return `${holder.expression.getText(ast).replace(/\s+/g, "")}${label}`;
  }
  return `<anonymous@${line}>`;
}

function contains(outer: ts.Node, inner: ts.Node): boolean {
  return inner.pos >= outer.pos && inner.end <= outer.end;
}

function className(node: ts.Node, ast: ts.SourceFile): string {
  return ts.isClassLike(node) && node.name
    ? node.name.text
    : `<class@${ast.getLineAndCharacterOfPosition(node.getStart(ast)).line + 1}>`;
}

/**
 * Every function-like node under `dir` (declarations, methods, arrow functions and function expressions,
 * constructors, getters and setters), with the lines from its first to its last. A nested function is
 * named within its enclosing ones ("outer > inner"); a name repeated in a file gets "#2", "#3" in order.
 */
export function functionSpans(dir: string): FunctionSpan[] {
  const spans: FunctionSpan[] = [];
  for (const { path, ast } of sourceFiles(dir)) {
    const seen = new Map<string, number>();
    const visit = (node: ts.Node, enclosing: string[]): void => {
      let inside = enclosing;
      if (isFunctionLike(node) && node.body) {
        const qualified = [...enclosing, functionName(node, ast)].join(" > ");
        const count = (seen.get(qualified) ?? 0) + 1;
        seen.set(qualified, count);
        const first = ast.getLineAndCharacterOfPosition(node.getStart(ast)).line;
        const last = ast.getLineAndCharacterOfPosition(node.getEnd()).line;
        spans.push({ key: `${path}:${qualified}${count > 1 ? `#${count}` : ""}`, lines: last - first + 1 });
        inside = [...enclosing, functionName(node, ast)];
      }
      ts.forEachChild(node, (child) => visit(child, inside));
    };
    visit(ast, []);
  }
  return spans;
}
