// The greeting widget's Web API: the page calls these with Homey.api(method, path, body).
export default {
  async getGreeting({ homey, query }) {
    return { text: homey.app.text(query.person || undefined) };
  },

  async greet({ homey, body }) {
    return { text: await homey.app.greet(typeof body.person === 'string' && body.person ? body.person : undefined) };
  },
};
