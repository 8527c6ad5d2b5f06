/**
 * Greeter: builds a greeting from its settings (name, style) and the hub's language, speaks it
 * when the name changes (or at start, when greetOnStart is on), and offers a person picker
 * (autocomplete) for its dashboard widget. Written as an ES module.
 */
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

export default class Greeter {
  async onInit(hub) {
    this.hub = hub;
    hub.dashboards.registerAutocomplete('greeting', 'person', (query) => {
      const q = String(query).toLowerCase();
      return PEOPLE.filter((p) => p.name.toLowerCase().includes(q) || p.description.toLowerCase().includes(q));
    });
    hub.settings.on('set', (key) => {
      if (key === 'name' || key === 'style') void this.greet().catch((err) => hub.error('greeting failed:', err.message));
    });
    if (await hub.settings.get('greetOnStart')) await this.greet().catch((err) => hub.error('greeting failed:', err.message));
    hub.log('ready:', await this.text());
  }

  async text() {
    const name = (await this.hub.settings.get('name')) ?? 'friend';
    const style = (await this.hub.settings.get('style')) === 'formal' ? 'formal' : 'casual';
    return this.hub.__(`greeting.${style}.${partOfDay(new Date().getHours())}`, { name });
  }

  async greet() {
    const text = await this.text();
    this.hub.log('saying:', text);
    await this.hub.speech.say(text);
  }
}
