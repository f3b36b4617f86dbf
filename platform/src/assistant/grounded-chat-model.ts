/**
 * The grounded assistant (the AI chat's default adapter, offline): recognises what a question asks
 * (domain/src/assistant/intents.ts), runs the look-ups its answer needs from the caller's toolbox
 * (answers.ts planFor), and writes the answer from their facts (answers.ts render). No language model:
 * every number in an answer is the text of one of the facts returned with it, and a question it has
 * no intent for is answered as outside what it knows.
 */
import { planFor, render, type PlanResults } from '@papertrade/domain/assistant/answers';
import { recognise } from '@papertrade/domain/assistant/intents';
import type { ChatModel, ChatModelReply, ChatModelRequest } from './chat-model';

export class GroundedChatModel implements ChatModel {
  readonly kind = 'grounded' as const;

  async reply({ message, history, tools }: ChatModelRequest): Promise<ChatModelReply> {
    const recognised = recognise(message, history);
    const results: PlanResults = {};
    // The look-ups of one answer are independent reads: in parallel.
    await Promise.all(
      // A look-up this deployment does not offer (the what-if runner outside the simulated market) is left out: the answer says so.
      planFor(recognised).filter((call) => tools.has(call.name)).map(async (call) => {
        Object.assign(results, { [call.name]: await tools.run(call.name, call.input) });
      }),
    );
    const { text, facts } = render(recognised, results);
    return { response: text, facts, intent: recognised.intent };
  }
}
