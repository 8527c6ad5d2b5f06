/**
 * Greeter: builds a greeting from its settings (name, style) and the hub's language, speaks it
 * when the name changes (or at start, when greetOnStart is on), counts greetings in insights,
 * offers a person picker (autocomplete) for its dashboard widget, and tells open widgets of each
 * new greeting. A Homey app written as an ES module.
 */
import Homey from 'homey';

const PEOPLE = [
  { id: 'ada', name: 'Ada', description: 'Lovelace' },
  { id: 'alan', name: 'Alan', description: 'Turing' },
  { id: 'grace', name: 'Grace', description: 'Hopper' },
  { id: 'linus', name: 'Linus', description: 'Torvalds' },
  { id: 'margaret', name: 'Margaret', description: 'Hamilton' },
];

function partOfDay(hour) {
  return hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';
}

export default class Greeter extends Homey.App {
  async onInit() {
    this.greetings = await this.homey.insights.createLog('greetings', { title: this.homey.__('log.greetings'), type: 'number', decimals: 0 });
    this.count = 0;
    this.homey.dashboards.getWidget('greeting').registerSettingAutocompleteListener('person', async (query) => {
      const q = String(query).toLowerCase();
      return PEOPLE.filter((p) => p.name.toLowerCase().includes(q) || p.description.toLowerCase().includes(q));
    });
    this.homey.settings.on('set', (key) => {
      if (key === 'name' || key === 'style') this.greet().catch((err) => this.error('greeting failed:', err.message));
    });
    if (this.homey.settings.get('greetOnStart')) await this.greet().catch((err) => this.error('greeting failed:', err.message));
    this.log('ready:', this.text());
  }

  /** The greeting for `name` (default: the `name` setting) in the hub's language. */
  text(name = this.homey.settings.get('name') || 'friend') {
    const style = this.homey.settings.get('style') === 'formal' ? 'formal' : 'casual';
    return this.homey.__(`greeting.${style}.${partOfDay(new Date().getHours())}`, { name });
  }

  /** Says the greeting out loud, counts it, and shows it on every open greeting widget. */
  async greet(name) {
    const text = this.text(name);
    this.log('saying:', text);
    await this.homey.speechOutput.say(text);
    await this.greetings.createEntry(++this.count);
    await this.homey.api.realtime('greeting', { text });
    return text;
  }
}
