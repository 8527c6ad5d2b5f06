/** `this.homey.speechOutput`: speaks through the hub's speech engine and audio sink. */
import { type HomeyContext, hasPermission } from '../context.cjs';
import { needsPermission } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export const SPEECH_PERMISSION = 'homey:manager:speech-output';

export class ManagerSpeechOutput extends Manager {
  static ID = 'speech-output';

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  /** Resolves once the text has been spoken (hearth's queue speaks one text at a time). */
  async say(text: string, _opts?: { session: object }): Promise<void> {
    if (!hasPermission(this.ctx, SPEECH_PERMISSION)) throw needsPermission('speechOutput.say', SPEECH_PERMISSION);
    await this.ctx.transport.call('speech.say', { text: String(text) });
  }
}
