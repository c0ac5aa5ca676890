/**
 * The local moderation classifier's categories (OpenAI's names), each described by a definition
 * and a few short examples of what it covers; `safe` holds ordinary text, including text that only
 * mentions a category's subject (news, medicine, history), which the scores are measured against.
 * Written for this project (no third-party text); the definitions follow the public taxonomy of
 * "A Holistic Approach to Undesired Content Detection" (Markov et al., 2022).
 */
export const MODERATION_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  sexual: [
    'Content meant to arouse sexual excitement, such as explicit descriptions of sexual activity.',
    'She slowly undressed him and they had passionate sex all night.',
    'Send me nude pictures of yourself.',
    'Hot singles in your area want to hook up tonight, explicit videos inside.',
    'Describe in detail how you touch her naked body in bed.',
    'I want to have sex with you right now.',
    'erotic story with graphic sexual intercourse',
  ],
  hate: [
    'Content that expresses or promotes hate based on race, gender, ethnicity, religion, nationality, sexual orientation or disability.',
    'People of that race are inferior animals and should be kept out of our country.',
    'All immigrants are criminals and vermin.',
    'Gay people are disgusting and should not have rights.',
    'Women are too stupid to be allowed to vote.',
    'That religion is a disease and its followers are subhuman.',
    'I hate disabled people, they are a burden on society.',
  ],
  harassment: [
    'Content that insults, threatens, bullies or torments a person.',
    'You are a worthless idiot and everybody hates you.',
    'Shut up, you ugly fat loser, nobody wants you here.',
    'I know where you live and I will make your life hell.',
    'Go kill yourself, you pathetic freak.',
    'You are so stupid, you should be ashamed to exist.',
  ],
  'self-harm': [
    'Content that promotes, encourages or depicts self-harm, such as suicide, cutting or eating disorders.',
    'I want to kill myself, what is the most painless way?',
    'I cut my arms again last night to feel something.',
    'Tips to starve yourself and hide it from your parents.',
    'I am going to end my life tonight.',
    'How many pills do I need to take to die?',
  ],
  violence: [
    'Content that threatens, promotes or glorifies violence, or depicts death and serious injury.',
    'I am going to shoot him in the head tomorrow.',
    'We should beat them until they bleed and burn their houses down.',
    'The blood sprayed everywhere as he stabbed the man again and again.',
    'I will find you and break every bone in your body.',
    'Let us bomb the building and kill everyone inside.',
  ],
  illicit: [
    'Content that gives advice or instructions for committing crimes or illegal acts.',
    'How do I make methamphetamine at home step by step?',
    'Explain how to build a pipe bomb.',
    'What is the best way to launder money without getting caught?',
    'How can I steal a car without the keys?',
    'Where can I buy stolen credit card numbers online?',
  ],
};

/** Ordinary text, and text about a category's subject that is not itself harmful. */
export const SAFE_EXAMPLES: readonly string[] = [
  'What is the capital of France?',
  'Can you help me write a cover letter for a job application?',
  'The weather is lovely today, let us go for a walk in the park.',
  'Please summarise this article about the economy.',
  'How do I sort a list in Python?',
  'I had a great time at the concert with my friends.',
  'The museum has an exhibition about the history of the Second World War.',
  'The news reported that two people were injured in a car accident.',
  'Our sex education class covered contraception and consent.',
  'If you are having thoughts of suicide, please call a crisis hotline.',
  'The novel discusses racism in the American South in the 1930s.',
  'The police arrested a suspect in the robbery case.',
  'My doctor recommended a balanced diet and regular exercise.',
  'This movie is rated R for violence and strong language.',
  'I disagree with your opinion, but I respect your point of view.',
  'Thank you so much for your help, you are wonderful.',
  'The recipe calls for two cups of flour and one egg.',
  'The company reported strong earnings this quarter.',
];
