/**
 * The sentence playVoiceSample speaks, in the voice's own language (English where we have none).
 */
const SAMPLES: Readonly<Record<string, string>> = {
  en: 'Hello, this is how I sound when I read your announcements.',
  nl: 'Hallo, zo klink ik wanneer ik je meldingen voorlees.',
  de: 'Hallo, so klinge ich, wenn ich deine Mitteilungen vorlese.',
  fr: 'Bonjour, voici ma voix quand je lis vos annonces.',
  es: 'Hola, así sueno cuando leo tus avisos.',
  it: 'Ciao, ecco come suono quando leggo i tuoi avvisi.',
  pt: 'Olá, é assim que eu soo quando leio os seus avisos.',
  sv: 'Hej, så här låter jag när jag läser upp dina meddelanden.',
  da: 'Hej, sådan lyder jeg, når jeg læser dine beskeder op.',
  nb: 'Hei, slik høres jeg ut når jeg leser opp meldingene dine.',
  no: 'Hei, slik høres jeg ut når jeg leser opp meldingene dine.',
  fi: 'Hei, tältä kuulostan, kun luen ilmoituksesi.',
  pl: 'Cześć, tak brzmię, kiedy czytam twoje komunikaty.',
  cs: 'Ahoj, takhle zním, když čtu tvá oznámení.',
  ru: 'Привет, так я звучу, когда читаю ваши объявления.',
  tr: 'Merhaba, duyurularınızı okurken sesim böyle.',
  ko: '안녕하세요, 알림을 읽을 때 제 목소리는 이렇습니다.',
};

/** The sample sentence for a language tag ('nl-BE' -> Dutch). */
export function sampleSentence(language: string): string {
  return SAMPLES[language.toLowerCase().split('-')[0] ?? ''] ?? SAMPLES.en!;
}
