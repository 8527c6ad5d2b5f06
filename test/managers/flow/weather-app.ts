/**
 * Flow-card apps written from Homey's public docs (apps.developer.homey.app, "Flow" and "Flow
 * arguments"): a trigger with a token and a run listener that filters by state, a condition, an
 * action taking a text and a number, an action with an autocomplete argument, an app token
 * (`createToken`, `setValue`); and an app whose action crashes its process. The test starts a
 * trigger through the app's own Web API (api.js), as an app's code would on an event.
 */
import { writeHomeyApp } from '../../homey/apps.js';

export const WEATHER = 'com.example.weather';
export const CRASHY = 'com.example.crashy';
export const card = (app: string, id: string) => `homey:app:${app}:${id}`;

const FLOW = {
  triggers: [
    {
      id: 'rain_start',
      title: { en: 'It starts raining' },
      titleFormatted: { en: 'It starts raining at [[location]]' },
      hint: { en: 'When it starts raining more than 0.1 mm/h' },
      tokens: [{ name: 'mm_per_hour', type: 'number', title: { en: 'mm/h' }, example: 5 }],
      args: [
        {
          type: 'dropdown',
          name: 'location',
          title: { en: 'Location' },
          values: [
            { id: 'home', label: { en: 'Home' } },
            { id: 'work', label: { en: 'Work' } },
            { id: 'loop', label: { en: 'Everywhere at once' } },
          ],
        },
      ],
    },
    { id: 'wind_start', title: { en: 'The wind starts' } },
  ],
  conditions: [
    {
      id: 'is_raining',
      title: { en: 'It !{{is|is not}} raining' },
      args: [{ type: 'text', name: 'where', title: { en: 'Where' }, placeholder: { en: 'here' } }],
    },
  ],
  actions: [
    {
      id: 'remember',
      title: { en: 'Remember a message' },
      titleFormatted: { en: 'Remember [[message]] ([[amount]])' },
      args: [
        { type: 'text', name: 'message', title: { en: 'Message' } },
        { type: 'number', name: 'amount', title: { en: 'Amount' }, min: 0, max: 1000, required: false },
      ],
    },
    {
      id: 'play_artist',
      title: { en: 'Play an artist' },
      args: [{ type: 'autocomplete', name: 'artist', title: { en: 'Artist' } }],
    },
    {
      id: 'make_it_rain',
      title: { en: 'Make it rain everywhere' },
      args: [{ type: 'number', name: 'mm', title: { en: 'mm/h' } }],
    },
  ],
};

const APP_JS = `'use strict';
const Homey = require('homey');

module.exports = class WeatherApp extends Homey.App {
  async onInit() {
    this.rainStart = this.homey.flow.getTriggerCard('rain_start');
    this.rainStart.registerRunListener(async (args, state) => {
      // If true, this flow should run
      return args.location === state.location;
    });
    // Flows on the card changed: which locations do they watch now?
    this.rainStart.on('update', () => {
      this.rainStart.getArgumentValues().then((values) => {
        this.log('rain_start flows watch', JSON.stringify(values.map((args) => args.location)));
      });
    });

    const rainingCondition = this.homey.flow.getConditionCard('is_raining');
    rainingCondition.registerRunListener(async (args, state) => {
      return args.where === 'here';
    });

    this.lastMessage = await this.homey.flow.createToken('last_message', { type: 'string', title: 'Last message', value: '' });
    this.homey.flow.getActionCard('remember').registerRunListener(async (args, state) => {
      this.log('remember', args.message, typeof args.amount, args.amount);
      await this.lastMessage.setValue(args.message);
    });

    const playArtist = this.homey.flow.getActionCard('play_artist');
    playArtist.registerArgumentAutocompleteListener('artist', async (query, args) => {
      const results = [
        { name: 'Wolfgang Amadeus Mozart', description: 'Composer', id: 'mozart' },
        { name: 'Ludwig van Beethoven', description: 'Composer', id: 'beethoven' },
      ];
      return results.filter((result) => result.name.toLowerCase().includes(query.toLowerCase()));
    });
    playArtist.registerRunListener(async (args) => {
      await this.lastMessage.setValue('playing ' + args.artist.id);
    });

    this.homey.flow.getActionCard('make_it_rain').registerRunListener(async (args) => {
      await this.rainStart.trigger({ mm_per_hour: args.mm }, { location: 'loop' });
    });
    this.log('weather ready');
  }
};
`;

const API_JS = `'use strict';
module.exports = {
  async rain({ homey, body }) {
    await homey.app.rainStart.trigger({ mm_per_hour: body.mm }, { location: body.location });
    return 'ok';
  },
};
`;

export async function writeWeatherApp(appsDir: string): Promise<void> {
  await writeHomeyApp(appsDir, WEATHER, {
    json: { flow: FLOW, api: { rain: { method: 'POST', path: '/rain' } } },
    files: { 'app.js': APP_JS, 'api.js': API_JS },
  });
  await writeHomeyApp(appsDir, CRASHY, {
    json: { flow: { actions: [{ id: 'explode', title: { en: 'Explode' } }] } },
    files: {
      'app.js': `'use strict';
const Homey = require('homey');

module.exports = class CrashyApp extends Homey.App {
  async onInit() {
    this.homey.flow.getActionCard('explode').registerRunListener(async () => {
      this.log('exploding');
      process.exit(3);
    });
    this.log('crashy ready');
  }
};
`,
    },
  });
}
