/**
 * The speech-output manager: OS text-to-speech (espeak-ng or festival through `say`), voices,
 * speed and voice options, and the say queue. `service.say()` is what the apps SDK calls.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { AppsPort } from '../apps/port.js';
import type { ManagerContext } from '../context.js';
import { speechOutputContract } from './contract.js';
import { voiceOperations } from './operations.js';
import { SpeechService } from './service.js';

export { type SayOptions, SpeechService, type Spoken } from './service.js';

export class SpeechOutputManager implements Manager {
  readonly name = speechOutputContract.name;
  readonly contract = speechOutputContract;
  readonly operations: readonly Operation[];
  readonly service: SpeechService;
  private sdkOff: Array<() => void> = [];

  constructor(
    ctx: ManagerContext,
    private readonly apps: AppsPort,
  ) {
    this.service = new SpeechService({
      config: ctx.config,
      store: ctx.store,
      bus: ctx.bus,
      log: ctx.log,
      options: ctx.options,
      // i18n is declared before this manager; until it is, the service falls back to 'en'.
      language: () => ctx.options.get<string>('i18n', 'language'),
      ...(ctx.probes ? { probe: ctx.probes.speech } : {}),
    });
    this.operations = [
      ...ctx.options.register(this.name, speechOutputContract.options, { voice: (id) => this.service.voiceProblem(id as string) }),
      ...voiceOperations(this.service),
    ];
  }

  /**
   * Serves `this.homey.speechOutput.say(text)` and `this.homey.audio.playWav/playMp3` of the app
   * SDK through the apps runtime's router (which has checked the app's speech permission and the
   * arguments); each resolves once the audio was played.
   */
  private serveSdk(): void {
    const { router } = this.apps;
    this.sdkOff = [
      router.handle('speech.say', async (_app, { text }) => {
        await this.service.say(text);
        return null;
      }),
      router.handle('audio.play', async (_app, { format, sample }) => {
        await this.service.playAudio(format, Buffer.from(sample, 'base64'));
        return null;
      }),
    ];
  }

  start(): Promise<void> {
    this.serveSdk();
    return this.service.start();
  }

  async stop(): Promise<void> {
    for (const off of this.sdkOff) off();
    this.sdkOff = [];
    await this.service.stop();
  }
}
