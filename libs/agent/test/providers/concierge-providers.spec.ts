// Acceptance: tool.md's Concierge example, unchanged except that its provider points at a local
// fake server, runs both turns end to end through the real SDKs — GeminiProvider against the
// fake Gemini API and OpenAIProvider against the fake Chat Completions API.
import type { AiProvider } from '@falai/agent';
import { GeminiProvider, OpenAIProvider } from '../../src/providers';
import { buildConcierge } from './concierge-agent';
import { conciergeGemini, conciergeOpenAI } from '../fakes/concierge-wire';
import { FakeGeminiServer } from '../fakes/fake-gemini-server';
import { FakeOpenAIServer } from '../fakes/fake-openai-server';

// Real HTTP servers and SDKs: allow for a busy CI machine (the default is 5 s per test).
jest.setTimeout(30_000);

/** Both turns of the example, the host passing its history as it would. */
async function runBothTurns(provider: AiProvider) {
  const agent = buildConcierge(provider);
  const r1 = await agent.turn({ sessionId: "demo", message: "Quero um quarto em Curitiba" });
  const r2 = await agent.turn({
    sessionId: "demo",
    message: "Sim, pode reservar",
    history: [
      { role: "user", content: "Quero um quarto em Curitiba" },
      { role: "assistant", content: r1.messages[0]?.text ?? null },
    ],
  });
  return { r1, r2 };
}

function expectConciergeOutcome({ r1, r2 }: Awaited<ReturnType<typeof runBothTurns>>) {
  expect(r1.messages.map((m) => m.text)).toEqual(["A diária em Curitiba sai por R$ 420. Posso reservar?"]);
  expect(r1.session.data).toEqual({ cidade: "Curitiba" });
  expect(r1.started.map((run) => run.flowId)).toEqual(["hospedagem"]);
  // understand + speak round 1 (preco) + speak round 2 (text)
  expect(r1.llmCalls).toBe(3);
  expect(r1.trace.filter((t) => t.type === "tool").map((t) => t.type === "tool" && [t.tool, t.gate, t.result])).toEqual([
    ["preco", "ok", '{"precoNoite":420}'],
  ]);

  expect(r2.session.data.reserva).toMatch(/^RES-[0-9A-Z]+$/);
  expect(r2.messages.map((m) => m.text)).toEqual([`Pronto! Sua reserva está confirmada. Código: ${r2.session.data.reserva}.`]);
  expect(r2.ended.map((run) => [run.flowId, run.reason])).toEqual([["hospedagem", "completed"]]);
  expect(r2.session.runs).toEqual([]);
}

describe("tool.md's Concierge example against fake model servers, through the real SDKs", () => {
  it("GeminiProvider → fake Gemini API: both turns end to end", async () => {
    const server = await FakeGeminiServer.start(conciergeGemini);
    try {
      const turns = await runBothTurns(new GeminiProvider({ apiKey: "g-test", model: "gemini-2.5-flash", baseUrl: server.baseUrl }));
      expectConciergeOutcome(turns);
      // Every speak round declares both tools; turn 1 allows only preco, turn 2 only reservar; the understand call had no tools and a JSON schema.
      const withTools = server.calls.filter((c) => c.body.tools);
      const declared = withTools.map((c) => c.body.tools.flatMap((t: { functionDeclarations: { name: string }[] }) => t.functionDeclarations.map((d) => d.name)));
      expect(declared).toEqual([["preco", "reservar"], ["preco", "reservar"], ["preco", "reservar"], ["preco", "reservar"]]);
      expect(withTools.map((c) => c.body.toolConfig)).toEqual([["preco"], ["preco"], ["reservar"], ["reservar"]].map((allowedFunctionNames) => ({ functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames } })));
      const understandCalls = server.calls.filter((c) => c.body.generationConfig?.responseMimeType === "application/json");
      expect(understandCalls.length).toBeGreaterThanOrEqual(1);
      // The round after a function call sends the call back with its signature, and the result.
      const round2 = server.calls[2].body.contents;
      expect(round2[round2.length - 2].parts).toEqual([{ functionCall: { name: "preco", args: { cidade: "Curitiba" } }, thoughtSignature: "c2ln" }]);
      // The turn's context comes last, after the tool results, so the prefix before it stays cacheable.
      expect(round2[round2.length - 1].parts).toEqual([
        { functionResponse: { name: "preco", response: { output: { precoNoite: 420 } } } },
        { text: expect.stringMatching(/^## Now\nApresente o preço da diária\. Pergunte se pode reservar\.\n\nKnown fields: \{"cidade":"Curitiba"\}\n\nWhen you answer without calling a tool/) },
      ]);
      // Usage reaches the TurnResult: thinking counts as output.
      expect(turns.r1.usage).toEqual({ inputTokens: 560, outputTokens: 55 });
    } finally {
      await server.close();
    }
  });

  it("OpenAIProvider → fake Chat Completions API: both turns end to end", async () => {
    const server = await FakeOpenAIServer.start(conciergeOpenAI);
    try {
      const turns = await runBothTurns(new OpenAIProvider({ apiKey: "sk-test", model: "gpt-4.1-mini", baseURL: server.baseURL, allowedTools: true }));
      expectConciergeOutcome(turns);
      // Every speak round declares both tools and narrows them with allowed_tools: preco in turn 1, reservar in turn 2.
      const withTools = server.bodies.filter((b) => b.tools);
      expect(withTools.map((b) => b.tools.map((t: { function: { name: string } }) => t.function.name))).toEqual([["preco", "reservar"], ["preco", "reservar"], ["preco", "reservar"], ["preco", "reservar"]]);
      expect(withTools.map((b) => b.tool_choice)).toEqual(
        ["preco", "preco", "reservar", "reservar"].map((name) => ({ type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name } }] } })),
      );
      expect(server.bodies[0].response_format.json_schema.name).toBe("understand");
      expect(turns.r1.usage).toEqual({ inputTokens: 560, outputTokens: 52, cachedInputTokens: 64 });
    } finally {
      await server.close();
    }
  });

  it("OpenAIProvider → an OpenAI-compatible server: only the step's tools, no allowed_tools", async () => {
    const server = await FakeOpenAIServer.start(conciergeOpenAI);
    try {
      const turns = await runBothTurns(new OpenAIProvider({ apiKey: "sk-test", model: "gpt-4.1-mini", baseURL: server.baseURL }));
      expectConciergeOutcome(turns);
      expect(server.bodies.some((b) => b.tool_choice !== undefined)).toBe(false);
      const offered = server.bodies.map((b) => (b.tools ?? []).map((t: { function: { name: string } }) => t.function.name));
      expect(offered.filter((names) => names.length > 0)).toEqual([["preco"], ["preco"], ["reservar"], ["reservar"]]);
      expect(server.bodies[0].response_format.json_schema.name).toBe("understand");
      // Round 2 of turn 1 carries the assistant tool call (engine id) and the tool result.
      const messages = server.bodies[2].messages;
      expect(messages.slice(-2)).toEqual([
        { role: "assistant", content: null, tool_calls: [{ id: "call-1-0", type: "function", function: { name: "preco", arguments: '{"cidade":"Curitiba"}' } }] },
        { role: "tool", tool_call_id: "call-1-0", content: '{"precoNoite":420}' },
      ]);
      expect(turns.r1.usage).toEqual({ inputTokens: 560, outputTokens: 52, cachedInputTokens: 64 });
    } finally {
      await server.close();
    }
  });
});
