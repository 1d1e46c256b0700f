// The @google/genai entry point for this CommonJS code base. The package ships a CommonJS build
// (what Node and jest load here) but types that TypeScript's node16 resolution reads as ESM
// only, so a plain `import` does not type-check. Values come through `require` (the CommonJS
// build), types through an import with resolution-mode "import".
type GenAI = typeof import('@google/genai', { with: { 'resolution-mode': 'import' } });

// eslint-disable-next-line @typescript-eslint/no-require-imports -- see the header comment
const genai = require('@google/genai') as GenAI;

export const GoogleGenAI = genai.GoogleGenAI;
export type GoogleGenAI = InstanceType<GenAI['GoogleGenAI']>;
export const ApiError = genai.ApiError;
export type ApiError = InstanceType<GenAI['ApiError']>;

export type { Content, GenerateContentConfig, GenerateContentResponse, Part } from '@google/genai' with { 'resolution-mode': 'import' };
