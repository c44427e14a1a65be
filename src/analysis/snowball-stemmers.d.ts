// Types for snowball-stemmers 0.6.0, a CommonJS package that ships none.

declare module 'snowball-stemmers' {
  export interface Stemmer {
    stem(word: string): string;
  }
  const snowball: {
    newStemmer(algorithm: string): Stemmer;
    algorithms(): string[];
  };
  export default snowball;
}
