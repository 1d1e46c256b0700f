// The @google/genai entry point for this CommonJS code base. The package ships a CommonJS build
// (what Node and jest load here) but types that TypeScript's node16 resolution reads as ESM
// only, so a plain `import` does not type-check. Values come through `require` (the CommonJS
// build), types through an import with resolution-mode "import".
type GenAI = typeof import('@google/genai', { with: { 'resolution-mode': 'import' } });

let genai: GenAI | undefined;

/** The SDK module, loaded on first use: a process that never builds a Gemini provider does not pay for it (~11 MB of RSS). */
export function genaiSdk(): GenAI {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see the header comment
  return (genai ??= require('@google/genai') as GenAI);
}

export type GoogleGenAI = InstanceType<GenAI['GoogleGenAI']>;
export type ApiError = InstanceType<GenAI['ApiError']>;

export type { Content, FunctionCallingConfigMode, FunctionDeclaration, GenerateContentConfig, GenerateContentResponse, Part } from '@google/genai' with { 'resolution-mode': 'import' };
