/**
 * Validation of manifests against the Kubernetes schemas, offline: kubernetes-models (Kubernetes
 * 1.27's OpenAPI schemas) and @kubernetes-models/keda (KEDA's ScaledObject CRD schema).
 *
 * Those JSON schemas, like the API server's OpenAPI, do not forbid unknown fields, so a misspelt
 * `readinesProbe` would pass them (and be dropped, or refused, by the API server). The packages'
 * TypeScript interfaces are generated from the same schemas, so `unknownFieldErrors` type-checks
 * each manifest as an object literal of its interface: TypeScript's excess-property check then
 * names every field the schema does not have.
 */
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './catalogue.js';
import type { Manifest } from './manifests.js';

interface SchemaModel {
  validate(): void;
}

interface KindSchema {
  /** kubernetes-models' class for the kind; validate() throws on a schema violation. */
  model: (data: Manifest) => SchemaModel;
  /** Module and interface name of its TypeScript type. */
  module: string;
  type: string;
}

// ModelData<T> is T without apiVersion/kind; the constructors put them back and validate() checks them.
type Ctor = new (data: never) => SchemaModel;
const make = (C: Ctor, module: string, type: string): KindSchema => ({
  model: (data) => new C(data as never),
  module,
  type,
});

export const SCHEMAS: ReadonlyMap<string, KindSchema> = new Map([
  ['v1/Namespace', make(Namespace, 'kubernetes-models/v1/Namespace', 'INamespace')],
  ['v1/ConfigMap', make(ConfigMap, 'kubernetes-models/v1/ConfigMap', 'IConfigMap')],
  ['v1/Secret', make(Secret, 'kubernetes-models/v1/Secret', 'ISecret')],
  ['v1/Service', make(Service, 'kubernetes-models/v1/Service', 'IService')],
  ['apps/v1/Deployment', make(Deployment, 'kubernetes-models/apps/v1/Deployment', 'IDeployment')],
  [
    'autoscaling/v2/HorizontalPodAutoscaler',
    make(HorizontalPodAutoscaler, 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler', 'IHorizontalPodAutoscaler'),
  ],
  ['policy/v1/PodDisruptionBudget', make(PodDisruptionBudget, 'kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget')],
  ['keda.sh/v1alpha1/ScaledObject', make(ScaledObject, '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject', 'IScaledObject')],
]);

const where = (m: Manifest): string => `${m.file}: ${m.kind} ${m.metadata.name}`;

/** Schema violations of each manifest ("file: Kind name: message"); empty when all are valid. */
export function schemaErrors(manifests: readonly Manifest[]): string[] {
  const errors: string[] = [];
  for (const m of manifests) {
    const schema = SCHEMAS.get(`${m.apiVersion}/${m.kind}`);
    if (!schema) {
      errors.push(`${where(m)}: no schema known for ${m.apiVersion} ${m.kind}`);
      continue;
    }
    const { file: _file, ...data } = m;
    try {
      schema.model(data as Manifest).validate();
    } catch (err) {
      errors.push(`${where(m)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return errors;
}

/** Parsed declaration files, shared by every check in the process. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** Fields the schemas do not define, and wrongly typed values, found by TypeScript (see above). */
export function unknownFieldErrors(manifests: readonly Manifest[]): string[] {
  const virtualFile = path.join(ROOT, 'test', 'deploy', '__manifests__.ts');
  const imports = new Map<string, string>();
  const lines: string[] = [];
  manifests.forEach((m, i) => {
    const schema = SCHEMAS.get(`${m.apiVersion}/${m.kind}`);
    if (!schema) return;
    const alias = `T${imports.size}`;
    if (!imports.has(schema.module)) imports.set(schema.module, alias);
    const { file: _file, ...data } = m;
    lines.push(`// ${where(m)}`, `export const m${i}: ${imports.get(schema.module)!} = ${JSON.stringify(data, null, 2)};`);
  });
  const header = [...imports].map(([module, alias]) => {
    const type = [...SCHEMAS.values()].find((s) => s.module === module)!.type;
    return `import type { ${type} as ${alias} } from '${module}';`;
  });
  const source = [...header, ...lines].join('\n');

  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (path.resolve(fileName) === virtualFile) return ts.createSourceFile(fileName, source, languageVersion);
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile(fileName, languageVersion, ...rest));
    return parsed.get(fileName);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => path.resolve(fileName) === virtualFile || fileExists(fileName);
  const program = ts.createProgram([virtualFile], options, host);
  const file = program.getSourceFile(virtualFile)!;
  const sourceLines = source.split('\n');
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
    const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
    // The nearest "// file: Kind name" comment above the error names the manifest.
    const owner = sourceLines
      .slice(0, line + 1)
      .reverse()
      .find((l) => l.startsWith('// '));
    return `${owner?.slice(3) ?? 'manifests'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
