// Synthetic SOTOPIA episodes in the public JSONL dump's shape, with GPT-4-judge-like
// scores (METRICS.md § SOTOPIA-EVAL) and human ratings that disagree with the
// judge in known ways (METRICS.md § Evaluator agreement). Pure functions of a
// seed: no I/O, no clock. Every scenario, character, line and rationale here is
// invented for the samples.

import {SOTOPIA_DIMENSIONS, type Dimension} from "../../src/lib/dimensions.js";
import {overallScore} from "../../src/lib/sotopia.js";
import {Random} from "./random.js";

/** The agent models of the samples, best first. */
export const SAMPLE_MODELS = ["gpt-4", "gpt-3.5-turbo", "llama-2-70b-chat", "mistral-7b-instruct"] as const;

/** The judge (experiment_model_name_pairs[0]) of every sample episode. */
export const SAMPLE_JUDGE = "gpt-4";

export type DimensionKey =
  | "believability" | "relationship" | "knowledge" | "secret" | "social_rules" | "financial_and_material_benefits" | "goal";

export type SotopiaScores = Record<DimensionKey, number> & {overall_score: number};

/** [sender, receiver, text]: one message of a turn. */
export type Triple = [string, string, string];

/** One line of the public SOTOPIA JSONL dump, plus the `synthetic` mark. */
export interface SotopiaDumpRecord {
  episode_id: string;
  environment_id: string;
  agent_ids: [string, string];
  experiment_tag: string;
  experiment_model_name_pairs: [string, string, string];
  raw_messages: Triple[][];
  raw_rewards: [number, SotopiaScores][];
  raw_rewards_prompt: string;
  scenario: string;
  codename: string;
  agents_background: Record<string, string>;
  social_goals: Record<string, string>;
  social_interactions: string;
  reasoning: string;
  rewards: [SotopiaScores, SotopiaScores];
  synthetic: true;
}

/** One human score: a row of human_ratings.csv (long form). */
export interface HumanRating {
  episode_id: string;
  agent: 1 | 2;
  dimension: DimensionKey;
  rater: string;
  value: number;
  rationale: string;
}

/**
 * How much text an episode carries: `sample` keeps the committed samples small;
 * `realistic` pads utterances, rationales and the judge prompt to about the
 * size of real dump lines (~31 KB), for benchmarks.
 */
export type SampleStyle = "sample" | "realistic";

export interface EpisodeOptions {
  seed: string | number;
  /** Number of episodes; they cycle through every (agent 1 model, agent 2 model) seating. */
  count: number;
  style?: SampleStyle;
  models?: readonly string[];
  judge?: string;
}

export interface SampleOptions {
  seed: string | number;
  /** Episodes per ordered seating (m1, m2); 4 models give 16 seatings. */
  perSeating?: number;
  /** Model-only episodes with human ratings. */
  annotated?: number;
  /** Size of the annotator pool. */
  annotators?: number;
  models?: readonly string[];
  /** Episodes per seating with a human player (HUMAN_SEATINGS); all of them are annotated. */
  perHumanSeating?: number;
}

export interface SotopiaSamples {
  episodes: SotopiaDumpRecord[];
  humanRatings: HumanRating[];
}

// ---------------------------------------------------------------------------
// Invented characters and scenarios.

interface Character {
  first: string;
  last: string;
  age: number;
  gender: "male" | "female" | "non-binary";
  pronouns: "He/him" | "She/her" | "They/them";
  occupation: string;
  skill: string;
  personality: string;
  decisions: string;
  secret: string;
}

const CHARACTERS: readonly Character[] = [
  {first: "Marisol", last: "Quintero", age: 34, gender: "female", pronouns: "She/her", occupation: "veterinary nurse", skill: "She can fix almost any bicycle.", personality: "Marisol is warm and talkative, and she values loyalty and fairness above comfort.", decisions: "She decides quickly and rarely looks back", secret: "She once failed her driving test five times in a row."},
  {first: "Tobias", last: "Renfield", age: 41, gender: "male", pronouns: "He/him", occupation: "high-school chemistry teacher", skill: "He bakes sourdough bread every weekend.", personality: "Tobias is patient and methodical and values order and tradition.", decisions: "He weighs every option on paper before choosing", secret: "He secretly writes fan fiction under a pen name."},
  {first: "Ingrid", last: "Halvorsen", age: 27, gender: "female", pronouns: "She/her", occupation: "junior architect", skill: "She speaks three languages fluently.", personality: "Ingrid is ambitious and direct and values achievement.", decisions: "She trusts her first instinct", secret: "She is quietly interviewing for a job in another city."},
  {first: "Desmond", last: "Achebe", age: 52, gender: "male", pronouns: "He/him", occupation: "bus driver", skill: "He knows every street in the city by heart.", personality: "Desmond is easygoing and generous and values kindness.", decisions: "He goes along with whatever keeps the peace", secret: "He has been sending money to a brother nobody in the family speaks to."},
  {first: "Priya", last: "Venkataraman", age: 30, gender: "female", pronouns: "She/her", occupation: "data analyst", skill: "She solves crossword puzzles in ink.", personality: "Priya is curious and precise and values honesty.", decisions: "She gathers facts first and decides late", secret: "She dropped out of her first degree and never told her parents."},
  {first: "Callum", last: "Ferreira", age: 23, gender: "male", pronouns: "He/him", occupation: "barista and part-time DJ", skill: "He can mix any two songs by ear.", personality: "Callum is spontaneous and playful and values freedom and fun.", decisions: "He makes decisions on the spot", secret: "He is behind on rent for the third month running."},
  {first: "Noor", last: "Haddad", age: 38, gender: "female", pronouns: "She/her", occupation: "emergency-room doctor", skill: "She stays calm in any crisis.", personality: "Noor is composed and protective and values care for others.", decisions: "She acts decisively under pressure", secret: "She is afraid of flying and invents excuses to avoid it."},
  {first: "Elliot", last: "Brandt", age: 45, gender: "male", pronouns: "He/him", occupation: "accountant", skill: "He can do long sums in his head.", personality: "Elliot is careful and reserved and values security.", decisions: "He avoids risk whenever he can", secret: "He lost a large sum on a cryptocurrency scheme last year."},
  {first: "Rowan", last: "Okafor", age: 29, gender: "non-binary", pronouns: "They/them", occupation: "community organiser", skill: "They can get any room of strangers talking.", personality: "Rowan is energetic and idealistic and values justice.", decisions: "They consult others before committing", secret: "They were arrested at a protest as a teenager."},
  {first: "Hana", last: "Kobayashi", age: 61, gender: "female", pronouns: "She/her", occupation: "retired librarian", skill: "She remembers the plot of every book she has read.", personality: "Hana is gentle but stubborn and values tradition and respect.", decisions: "She sleeps on every important decision", secret: "She has started learning to skateboard and hides it from her children."},
  {first: "Matteo", last: "Lindqvist", age: 36, gender: "male", pronouns: "He/him", occupation: "restaurant owner", skill: "He can cook for forty people without a recipe.", personality: "Matteo is charming and competitive and values success.", decisions: "He bargains hard and enjoys it", secret: "His restaurant is close to bankruptcy."},
  {first: "Yusra", last: "Demir", age: 25, gender: "female", pronouns: "She/her", occupation: "graduate student in marine biology", skill: "She is a certified scuba diver.", personality: "Yusra is thoughtful and a little anxious and values knowledge.", decisions: "She asks many questions before agreeing", secret: "She is thinking about quitting her doctorate."},
  {first: "Gideon", last: "Marsh", age: 48, gender: "male", pronouns: "He/him", occupation: "carpenter", skill: "He builds furniture from reclaimed wood.", personality: "Gideon is blunt and dependable and values hard work.", decisions: "He says what he thinks and sticks to it", secret: "He cannot read music, though he claims to play the piano."},
  {first: "Aurelie", last: "Fontaine", age: 33, gender: "female", pronouns: "She/her", occupation: "wedding photographer", skill: "She can make anyone laugh in front of a camera.", personality: "Aurelie is sociable and perceptive and values beauty and harmony.", decisions: "She follows her feelings", secret: "She is allergic to the cat she adopted and never mentions it."},
  {first: "Sami", last: "Nieminen", age: 31, gender: "non-binary", pronouns: "They/them", occupation: "software tester", skill: "They can find a bug in anything.", personality: "Sami is dry-humoured and sceptical and values independence.", decisions: "They test every claim before accepting it", secret: "They have a second job writing crossword clues for a newspaper."},
  {first: "Beatriz", last: "Almeida", age: 43, gender: "female", pronouns: "She/her", occupation: "pharmacist", skill: "She grows orchids that win local prizes.", personality: "Beatriz is organised and kind and values responsibility.", decisions: "She plans ahead and keeps lists", secret: "She copied a colleague's answers in her licensing exam."},
];

type Role = 0 | 1;

interface Scenario {
  codename: string;
  scenario: string;
  /** Goal of the agent in seat 1, then seat 2: [goal, extra information, optional hint]. */
  goals: [[string, string, string?], [string, string, string?]];
  /** Lines by stage, per seat. */
  lines: [StageLines, StageLines];
  /** Physical actions that fit the scene. */
  actions: readonly string[];
  /** What an agent can come out with (financial rationale), per seat. */
  stakes: [string, string];
  /** Something an agent can learn (knowledge rationale), per seat. */
  learns: [string, string];
}

interface StageLines {
  open: readonly string[];
  push: readonly string[];
  respond: readonly string[];
  concede: readonly string[];
  close: readonly string[];
}

const SCENARIOS: readonly Scenario[] = [
  {
    codename: "synthetic_shared_garden_plot",
    scenario: "Two neighbours share a community garden plot and have to agree on what to plant this season.",
    goals: [
      ["Get the sunny half of the plot for your tomatoes", "Extra information: last year your tomatoes failed in the shade and you have already bought seedlings.", "Hint: offer something in return, such as doing the weeding."],
      ["Keep room for a herb bed and get help with watering", "Extra information: you travel for work twice a month and cannot water every day."],
    ],
    lines: [
      {
        open: ["Morning, {O}! Have you had a chance to think about the plot this year?", "Hi {O}, the soil's finally warm enough. Shall we plan the beds?"],
        push: ["I'd really like the sunny half for tomatoes this time. They just didn't take in the shade last year.", "I already have twelve seedlings waiting on my windowsill, so the south side would make a real difference.", "If I take the sunny side, I'm happy to do all the weeding through July."],
        respond: ["Herbs don't need full sun though, do they? Basil maybe, but mint grows anywhere.", "I see. Watering is the hard part for you, then?"],
        concede: ["Alright, what if I water your herbs whenever you're away?", "We could put the basil at the end of my row, it'd get plenty of light there."],
        close: ["Great, I'll bring the stakes on Saturday.", "Thanks, {O}. This is going to be a good year for the garden."],
      },
      {
        open: ["Hi {O}! Yes, I've been sketching a layout, actually.", "Morning! I was hoping we'd bump into each other."],
        push: ["I'd like to keep a proper herb bed this year, rosemary, thyme, basil, the lot.", "The thing is, I'm away twice a month for work, so I'd need someone to water while I'm gone.", "Could we split it down the middle instead of by sun and shade?"],
        respond: ["Twelve seedlings? That's ambitious, {O}.", "I get that the tomatoes struggled. I'm not sure giving you the whole sunny side is fair, though."],
        concede: ["If you'll water while I'm away, I can live with the shadier side.", "Okay, the sunny half is yours, as long as the basil gets a corner."],
        close: ["Deal. I'll write up a watering calendar.", "Sounds good. See you Saturday with the stakes."],
      },
    ],
    actions: ["kneels down and crumbles a handful of soil", "points at the sunny corner by the fence", "pulls out a hand-drawn layout of the beds"],
    stakes: ["the better growing space", "free watering help"],
    learns: ["that the neighbour travels often and needs help", "how many seedlings the neighbour has already bought"],
  },
  {
    codename: "synthetic_borrowed_camera",
    scenario: "One friend lent the other an expensive camera, and it has come back with a scratched lens.",
    goals: [
      ["Get your friend to pay for the lens repair without damaging the friendship", "Extra information: the repair quote is $180."],
      ["Avoid paying the full repair cost", "Extra information: you think the scratch may have been there before you borrowed it.", "Hint: suggest splitting the cost."],
    ],
    lines: [
      {
        open: ["Hey {O}, thanks for bringing the camera back. Can I show you something?", "Hi {O}, do you have a minute? It's about the camera."],
        push: ["There's a scratch across the front lens. The repair shop quoted me $180.", "I'm not angry, honestly, but I can't really afford to cover it myself.", "I checked the photos from before I lent it to you, and the lens was clean."],
        respond: ["I know you'd never do it on purpose.", "I understand it's a lot of money at once."],
        concede: ["Would half now and half next month work for you?", "If we split it, I can live with that."],
        close: ["Thanks for being decent about this, {O}.", "Okay, I'll book the repair and send you the receipt."],
      },
      {
        open: ["Sure, what's up?", "Of course. Is something wrong with it?"],
        push: ["I really don't remember scratching it. Are you sure it wasn't there before?", "$180 is a lot for me right now. Could we split it?", "I was careful the whole trip, I kept it in the bag every night."],
        respond: ["Oh no. I didn't even notice that.", "I see it now. That's awful, I'm sorry."],
        concede: ["You're right, the old photos look clean. I'll cover my share.", "Alright, I'll pay half now and the rest when I get paid."],
        close: ["Send me the receipt and I'll transfer the money.", "Thanks for not making this weird, {O}."],
      },
    ],
    actions: ["turns the camera over to show the scratch", "opens the photo gallery on the phone", "takes a banking app out and checks the balance"],
    stakes: ["money towards the repair", "a smaller share of the repair bill"],
    learns: ["that the friend is short of money this month", "that the lens was clean in earlier photos"],
  },
  {
    codename: "synthetic_used_bike_sale",
    scenario: "Two strangers meet in a park to agree on the price of a used road bike listed online.",
    goals: [
      ["Sell the bike for at least $220", "Extra information: you listed it at $260 and have a second buyer interested."],
      ["Buy the bike for less than $200", "Extra information: you noticed the tyres are worn and the chain is rusty."],
    ],
    lines: [
      {
        open: ["Hi, you must be {O}. This is the bike from the listing.", "Hello! Thanks for coming out. Here she is."],
        push: ["It's a great frame, barely two years old. I'm asking $260.", "I've had another message about it, so I'd like to settle today.", "The gears were serviced in spring, it shifts perfectly."],
        respond: ["The tyres are due, sure, but they're cheap to replace.", "A bit of rust on the chain is nothing a wipe won't fix."],
        concede: ["I could come down to $230, but that's about my limit.", "Fine, $220 and I'll throw in the lights."],
        close: ["Pleasure doing business. Enjoy the rides!", "Here's the spare key for the lock. Take care of her."],
      },
      {
        open: ["Hi, yes, I'm {O}. Mind if I take a look?", "Hey! It looks nicer than the photos."],
        push: ["The tyres are pretty worn, and the chain has rust on it. Would you take $180?", "I'd need to spend at least $40 getting it road-ready.", "I can pay cash right now if the price is right."],
        respond: ["Two years old, okay, but it's clearly been ridden hard.", "I believe you about the gears. It's the rest I'm worried about."],
        concede: ["I could stretch to $200, cash.", "Alright, $210 with the lights included."],
        close: ["Thanks, I think I'll enjoy this one.", "Great, here's the cash. Nice meeting you."],
      },
    ],
    actions: ["squeezes the brakes and spins the back wheel", "lifts the bike to check its weight", "counts out banknotes"],
    stakes: ["cash for the bike", "a lower price for the bike"],
    learns: ["that the buyer can pay in cash immediately", "when the gears were last serviced"],
  },
  {
    codename: "synthetic_roommate_chores",
    scenario: "Two roommates sit down to redo their cleaning rota after weeks of quiet tension.",
    goals: [
      ["Get your roommate to take over cleaning the bathroom", "Extra information: you have cleaned it for the last six weeks."],
      ["Keep your weekends free of chores", "Extra information: you work weekday evenings and your weekends are your only free time."],
    ],
    lines: [
      {
        open: ["Hey {O}, got a minute to talk about the cleaning rota?", "So, I think it's time we redid the chore chart."],
        push: ["I've done the bathroom six weeks running. Could you take it over for a while?", "It's not about keeping score, I just feel it's been a bit one-sided.", "I'd happily swap it for the kitchen, which I actually don't mind."],
        respond: ["I didn't realise your weekday shifts were that late.", "Weekends, huh. That does make it tricky."],
        concede: ["What if you do the bathroom on Thursday mornings instead?", "I can keep the floors if you take the bathroom."],
        close: ["Perfect, I'll update the chart on the fridge.", "Thanks, {O}. That's a weight off."],
      },
      {
        open: ["Sure, I've been meaning to bring that up too.", "Yeah, go on. I know it's been a mess lately."],
        push: ["I work until ten most weeknights, so weekends are the only time I have for myself.", "I could do the bins and the recycling every day instead.", "Could we maybe hire a cleaner once a month and split it?"],
        respond: ["Six weeks? I'm sorry, I honestly lost track.", "That's fair, the bathroom is the worst job."],
        concede: ["Thursday mornings could work, I'm off until noon.", "Okay, I'll take the bathroom, but not on weekends."],
        close: ["Deal. Thursday it is.", "Thanks for being patient about it."],
      },
    ],
    actions: ["takes the rota off the fridge", "pulls up a shared calendar on the laptop", "fills the kettle and switches it on"],
    stakes: ["an easier share of the chores", "free weekends"],
    learns: ["that the roommate works late on weekdays", "how long the roommate had been cleaning alone"],
  },
  {
    codename: "synthetic_team_credit",
    scenario: "Two colleagues prepare for a review meeting where one shared project will be presented to senior management.",
    goals: [
      ["Be named the lead presenter", "Extra information: you did most of the analysis over three late weeks."],
      ["Present the results slides yourself", "Extra information: you are up for promotion and need visibility with management.", "Hint: offer to credit your colleague's analysis explicitly."],
    ],
    lines: [
      {
        open: ["Hi {O}, shall we split up the presentation for Thursday?", "Got a second? I wanted to plan the review meeting."],
        push: ["Given how much of the analysis I did, I think I should lead the presentation.", "I spent three weeks on those models, and I know the numbers best.", "If questions come up about the method, I'm the one who can answer them."],
        respond: ["I didn't know the promotion decision was this month.", "Visibility matters, I get that."],
        concede: ["What if I present the method and you present the results?", "You take the results slides, as long as the analysis is credited to me on the title slide."],
        close: ["Let's do a run-through on Wednesday.", "Good. I'll send you the draft tonight."],
      },
      {
        open: ["Sure, good timing.", "Yes, let's. I have some ideas."],
        push: ["I'd really like to present the results section. My promotion review is coming up.", "Management barely knows my name, and this is my best chance.", "I'll make sure everyone knows the analysis was yours, I promise."],
        respond: ["You did do most of the heavy lifting, that's true.", "I know those weeks were rough for you."],
        concede: ["Splitting it that way sounds fair to me.", "Okay, you lead, and I'll handle the Q&A on the timeline."],
        close: ["Wednesday works. Thanks, {O}.", "I'll look out for the draft."],
      },
    ],
    actions: ["opens the slide deck on the shared screen", "writes 'Method / Results' on the whiteboard", "scrolls through the analysis notebook"],
    stakes: ["career credit for the analysis", "visibility before the promotion review"],
    learns: ["that the colleague's promotion review is this month", "how long the analysis took"],
  },
  {
    codename: "synthetic_late_night_music",
    scenario: "A tenant knocks on a neighbour's door at eleven at night about loud music through the wall.",
    goals: [
      ["Get the music turned down for good on weeknights", "Extra information: you start work at six in the morning."],
      ["Keep your Friday jam sessions", "Extra information: your band only has Friday nights to rehearse."],
    ],
    lines: [
      {
        open: ["Hi, sorry to bother you this late. I'm {N}, from next door.", "Hey, hi. I live through the wall, I'm {N}."],
        push: ["The music's been really loud the last few nights, and I start work at six.", "Could you keep it down on weeknights, after ten at least?", "I've barely slept this week, to be honest."],
        respond: ["Fridays only? That's not so bad.", "A band, really? I thought it was a speaker."],
        concede: ["Fridays until midnight I can live with.", "If it's only Fridays, I'll use earplugs."],
        close: ["Thanks, I really appreciate it. Good night!", "Great. Good luck with the band."],
      },
      {
        open: ["Oh, hi. Is everything okay?", "Hey, no problem. What's up?"],
        push: ["We rehearse on Fridays, it's the only night the whole band is free.", "We can move the drums to the back room, if that helps.", "Could you live with Friday nights, if the rest of the week is quiet?"],
        respond: ["I'm sorry, I had no idea it carried that much.", "Six in the morning? That's brutal."],
        concede: ["Weeknights, absolutely. We'll stop by ten.", "Okay, and we'll wrap up Fridays by midnight."],
        close: ["Good night, and sorry again.", "Knock anytime if it gets too loud."],
      },
    ],
    actions: ["turns the volume down on the speaker", "leans on the door frame and yawns", "writes a phone number on a sticky note"],
    stakes: ["better sleep", "rehearsal time for the band"],
    learns: ["that the neighbour starts work at six", "that the noise comes from a band rehearsal"],
  },
  {
    codename: "synthetic_charity_pledge",
    scenario: "A volunteer asks an acquaintance at a community event to pledge money for a charity fun run.",
    goals: [
      ["Get a pledge of at least $50", "Extra information: your team is $400 short of its target."],
      ["Contribute without committing more than $20", "Extra information: you have already given to two causes this month."],
    ],
    lines: [
      {
        open: ["Hi {O}! Do you have a moment to hear about our fun run?", "Hey, {O}, great to see you here!"],
        push: ["We're raising money for the youth shelter, and we're $400 short.", "A pledge of $50 would cover a full night of beds.", "Everyone who pledges gets their name on the finish-line banner."],
        respond: ["Two causes already? That's generous of you.", "I completely understand, it's been a tight month for a lot of people."],
        concede: ["Even $20 helps, honestly.", "What about $20 now and you cheer for us at the finish?"],
        close: ["Thank you so much, {O}! See you at the finish line.", "That's wonderful. I'll send you the link."],
      },
      {
        open: ["Sure, what's it for?", "Hi! Nice to see you too."],
        push: ["I've already given to two charities this month, so I have to be careful.", "Could I do $20 and share the page with my friends?", "Is there a way to help without money, like volunteering on the day?"],
        respond: ["A youth shelter, that's a good cause.", "$400 is quite a gap."],
        concede: ["Alright, put me down for $30.", "Okay, $20 now, and I'll volunteer at the water station."],
        close: ["Good luck with the run!", "Send me the link and I'll share it."],
      },
    ],
    actions: ["holds out a clipboard with the pledge sheet", "takes out a wallet", "scans the QR code on the flyer"],
    stakes: ["money for the shelter", "a smaller donation than was asked for"],
    learns: ["that the acquaintance has given to two causes already", "how short the team is of its target"],
  },
  {
    codename: "synthetic_carpool_route",
    scenario: "Two colleagues who carpool every morning have to agree on the route now that one needs a daycare stop.",
    goals: [
      ["Add a daycare drop-off to the route", "Extra information: the daycare is a ten-minute detour."],
      ["Get to the office by 8:30 every day", "Extra information: you lead a standing meeting at 8:30."],
    ],
    lines: [
      {
        open: ["Hey {O}, can we talk about the morning drive?", "Morning! Before we set off, one thing."],
        push: ["My daughter starts daycare next week, and it's a ten-minute detour.", "Could we leave ten minutes earlier so I can drop her off?", "I'll cover the fuel for the extra distance."],
        respond: ["Your meeting is at 8:30 every day?", "I didn't realise you ran that meeting."],
        concede: ["I could pick you up at 7:45 instead of 7:55.", "On days with heavy traffic I can take the bus with her."],
        close: ["Thanks, {O}. See you at 7:45 on Monday.", "That's a relief, thank you."],
      },
      {
        open: ["Sure, what's up?", "Morning. Go ahead."],
        push: ["I lead the standing meeting at 8:30, so I really can't be late.", "Could we try it for a week and see if we make it on time?", "If we leave earlier, I'm fine with the detour."],
        respond: ["Daycare already? Time flies.", "Ten minutes isn't much, if the traffic's kind."],
        concede: ["7:45 works for me.", "Okay, let's try the new route next week."],
        close: ["Monday, 7:45. Got it.", "Happy to help."],
      },
    ],
    actions: ["opens a map app and traces the route", "checks the traffic forecast", "adjusts the rear-view mirror"],
    stakes: ["a convenient drop-off", "a reliable arrival time"],
    learns: ["that the colleague's child is starting daycare", "that the colleague leads an 8:30 meeting"],
  },
  {
    codename: "synthetic_spare_concert_ticket",
    scenario: "Two friends with one spare ticket to a sold-out concert each want to bring someone.",
    goals: [
      ["Give the spare ticket to your younger brother", "Extra information: it is his birthday that week."],
      ["Give the spare ticket to your partner", "Extra information: your partner introduced you to the band."],
    ],
    lines: [
      {
        open: ["So, about that spare ticket for Saturday...", "Hey {O}! Have you decided who gets the extra ticket?"],
        push: ["It's my brother's birthday that week, and he's obsessed with this band.", "I'd love to give it to him as a surprise.", "I'll cover the cost of the ticket, of course."],
        respond: ["Your partner got you into them? That's sweet.", "I didn't know that."],
        concede: ["What if we flip a coin?", "Okay, your partner can have it, and I'll take my brother to the next tour."],
        close: ["Alright, it's settled then. Saturday's going to be great!", "Thanks, {O}, I owe you one."],
      },
      {
        open: ["Ha, I was about to ask you the same thing.", "Not yet. I was hoping we could talk it through."],
        push: ["My partner is the reason I even know this band.", "It would mean a lot to them, they missed the last tour.", "We could ask the venue if more tickets come up."],
        respond: ["A birthday? That's hard to argue with.", "Your brother would love it, I'm sure."],
        concede: ["Fine, your brother gets it. It's his birthday after all.", "A coin flip is fair, let's do it."],
        close: ["See you Saturday!", "Okay, deal. Tell him happy birthday from me."],
      },
    ],
    actions: ["flips a coin on the table", "checks the resale site for more tickets", "holds up the ticket on the phone"],
    stakes: ["the spare ticket", "the spare ticket"],
    learns: ["that the friend's partner introduced them to the band", "that the brother's birthday is that week"],
  },
  {
    codename: "synthetic_missed_wedding",
    scenario: "One friend missed the other's wedding without explanation; they meet for coffee for the first time since.",
    goals: [
      ["Apologise and repair the friendship", "Extra information: you missed the wedding because of a family emergency you did not want to talk about."],
      ["Find out why your friend missed the wedding before deciding whether to forgive", "Extra information: you felt humiliated when the seat stayed empty."],
    ],
    lines: [
      {
        open: ["Thanks for agreeing to meet, {O}. I wasn't sure you would.", "Hi {O}. It's good to see you."],
        push: ["I owe you an apology for the wedding. I should have been there.", "Something happened at home that week, and I just shut down.", "I know an empty seat is hard to forget. I'm really sorry."],
        respond: ["You have every right to be upset.", "I'd feel the same way, honestly."],
        concede: ["I'll tell you what happened, if you want to hear it.", "Can we start again, slowly?"],
        close: ["Thank you for listening, {O}.", "Let's not leave it this long again."],
      },
      {
        open: ["I almost didn't come.", "Hi. Let's sit by the window."],
        push: ["I need to know why you weren't there.", "Everyone asked where you were, and I had no answer.", "A message, anything, would have helped."],
        respond: ["A family thing? Why didn't you just tell me?", "I didn't know anything was going on."],
        concede: ["I'm glad you told me. That changes things.", "Okay. I think I can move past this."],
        close: ["Same time next month?", "Thanks for being honest with me."],
      },
    ],
    actions: ["stirs the coffee without drinking it", "slides a wedding photo across the table", "looks out of the window for a moment"],
    stakes: ["an invitation to dinner, paid by the friend", "a dinner paid for by the friend"],
    learns: ["how hurt the friend was", "why the friend missed the wedding"],
  },
  {
    codename: "synthetic_trip_budget",
    scenario: "Two friends planning a weekend away disagree about how much to spend on the cabin.",
    goals: [
      ["Keep the whole trip under $300 each", "Extra information: you are saving for a deposit on a flat."],
      ["Book the cabin with the lake view", "Extra information: it costs $180 more than the basic cabin."],
    ],
    lines: [
      {
        open: ["Okay, cabins. Let's figure this out.", "Hey {O}, have you looked at the booking site?"],
        push: ["I'd really like to keep it under $300 each, all in.", "The basic cabin is lovely, and it's half the price.", "I'm saving for a deposit, so every bit counts right now."],
        respond: ["The lake view does look amazing, I won't lie.", "$180 more, though..."],
        concede: ["What if we book the lake view for one night and the basic one for the other?", "I could do the lake view if we cook instead of eating out."],
        close: ["Booked! This is going to be fun.", "Great, I'll send you the confirmation."],
      },
      {
        open: ["I have, and I found the perfect one.", "Yes! Wait until you see the pictures."],
        push: ["The lake-view cabin has a dock and a fire pit.", "It's only $180 more in total, so $90 each.", "We don't get away often, let's make it count."],
        respond: ["A deposit? Congratulations, that's exciting.", "I didn't know you were saving for that."],
        concede: ["Cooking our own meals sounds fun anyway.", "One night each is a good compromise."],
        close: ["Can't wait!", "Perfect. I'll plan the menu."],
      },
    ],
    actions: ["turns the laptop around to show the cabin photos", "adds up prices on a phone calculator", "writes a shopping list"],
    stakes: ["a cheaper trip", "a nicer cabin"],
    learns: ["that the friend is saving for a flat", "how much more the lake-view cabin costs"],
  },
  {
    codename: "synthetic_reference_letter",
    scenario: "A former employee asks their old manager for a strong reference letter for a new job.",
    goals: [
      ["Get a strong reference letter by Friday", "Extra information: the application closes on Friday."],
      ["Agree only to what you can honestly say", "Extra information: the employee often missed deadlines, though their work was good."],
    ],
    lines: [
      {
        open: ["Hi {O}, thanks for taking my call.", "Hello {O}, it's been a while!"],
        push: ["I'm applying for a senior role, and I'd love a reference from you.", "The application closes Friday, so it's a bit urgent.", "You saw my best work on the redesign project."],
        respond: ["I know the deadlines were a problem back then.", "That's fair. I've worked hard on that since."],
        concede: ["If you can speak to the quality of my work, that would already help.", "I can send you a summary of the projects to make it easier."],
        close: ["Thank you so much, {O}. I really appreciate it.", "That means a lot. I'll send the details tonight."],
      },
      {
        open: ["Of course, good to hear from you.", "Hi! How's the new job going?"],
        push: ["I'm happy to help, but I can only write what I honestly believe.", "Your work was excellent, but deadlines were a struggle.", "Would a letter focused on the quality of your work be useful?"],
        respond: ["Friday is tight, but doable.", "The redesign was great work, I agree."],
        concede: ["I'll mention how much you've grown, too.", "Send me the summary and I'll have it done by Thursday."],
        close: ["Good luck with the application!", "I'll email it Thursday evening."],
      },
    ],
    actions: ["opens an old performance review", "makes a note in a calendar", "types up a list of projects"],
    stakes: ["a reference that helps the application", "a favour owed by the former employee"],
    learns: ["that the application closes on Friday", "what the former employee has worked on since"],
  },
];

const ACKS = ["I hear you, {O}.", "Fair point.", "Okay.", "Hmm, let me think about that.", "That makes sense.", "Honestly, I wasn't expecting that.", "Right.", "I see where you're coming from."];
const ELABORATIONS = [
  "I just want us both to feel okay about this.",
  "It's been on my mind all week, to be honest.",
  "I'd rather sort it out now than let it drag on.",
  "You know I value how we get along.",
  "I've thought about it from your side too.",
  "I don't want this to turn into a big thing.",
  "I think we can find something that works for both of us.",
  "Let me be straight with you about where I stand.",
  "It matters to me more than it probably looks.",
  "I'm trying to be practical here.",
];
const QUESTIONS = ["What do you think?", "Does that work for you?", "How does that sound?", "Would you be open to that?", "Is that fair?"];
const NON_VERBAL = [
  "nodding slowly", "leaning back and crossing my arms", "smiling and raising an eyebrow", "glancing at my phone, then back up",
  "shrugging", "tapping my fingers on the table", "letting out a long sigh", "giving a thumbs-up",
];

// ---------------------------------------------------------------------------
// Scores.

/** Latent quality of each sample model, best first (judge-scale effects below scale with it). */
const MODEL_QUALITY: Readonly<Record<string, number>> = {
  human: 0.85,
  "gpt-4": 1.0,
  "gpt-3.5-turbo": 0.6,
  "llama-2-70b-chat": 0.38,
  "mistral-7b-instruct": 0.25,
};

interface ScoreModel {
  /** Judge-scale mean for a model of quality 0.5 against a partner of quality 0.5. */
  base: number;
  /** Change per unit of (own quality − 0.5) and of (partner quality − 0.5). */
  own: number;
  partner: number;
  /** Spread of the latent true score, and the judge's and a human's own noise around it. */
  sdTrue: number;
  sdJudge: number;
  sdHuman: number;
  /** How much more generous the judge is than humans, on average. */
  judgeBias: number;
  /** Weight of the task's difficulty. */
  task: number;
}

const SCORE_MODELS: Readonly<Record<DimensionKey, ScoreModel>> = {
  believability: {base: 8.2, own: 2.4, partner: 0.2, sdTrue: 0.7, sdJudge: 0.4, sdHuman: 0.8, judgeBias: 0, task: 0},
  relationship: {base: 1.6, own: 1.6, partner: 0.8, sdTrue: 1.0, sdJudge: 0.6, sdHuman: 1.0, judgeBias: 0.7, task: 0.3},
  knowledge: {base: 3.4, own: 2.0, partner: 0.5, sdTrue: 1.4, sdJudge: 0.8, sdHuman: 1.5, judgeBias: 0.5, task: 0.6},
  secret: {base: -0.15, own: 0.2, partner: 0, sdTrue: 0.25, sdJudge: 0.2, sdHuman: 0.5, judgeBias: 0.05, task: 0},
  social_rules: {base: -0.3, own: 0.4, partner: 0, sdTrue: 0.3, sdJudge: 0.25, sdHuman: 0.7, judgeBias: 0.25, task: 0},
  financial_and_material_benefits: {base: 0.7, own: 1.0, partner: 0.3, sdTrue: 1.0, sdJudge: 0.6, sdHuman: 1.0, judgeBias: 0.3, task: 0.4},
  goal: {base: 6.1, own: 3.0, partner: 0.6, sdTrue: 1.2, sdJudge: 0.7, sdHuman: 1.3, judgeBias: 1.2, task: 1.0},
};

const DIMS = SOTOPIA_DIMENSIONS as readonly (Dimension & {key: DimensionKey})[];

/**
 * Rounds normal draws around `center` until one lands in the dimension's range:
 * the generator never emits an out-of-range score, and never clips one.
 */
function drawScore(rng: Random, dim: Dimension, center: number, sd: number): number {
  const c = Math.min(dim.hi, Math.max(dim.lo, center)); // keeps the acceptance rate above one half
  for (let attempt = 0; attempt < 1000; attempt++) {
    const v = Math.round(rng.normal(c, sd));
    if (v >= dim.lo && v <= dim.hi) return v === 0 ? 0 : v; // no -0
  }
  throw new Error(`could not draw a ${dim.key} score in [${dim.lo}, ${dim.hi}] around ${center}`);
}

/** Latent true scores of one agent (before the judge's bias and noise). */
function latentScores(rng: Random, quality: number, partnerQuality: number, taskEffect: number): Record<DimensionKey, number> {
  const out = {} as Record<DimensionKey, number>;
  for (const d of DIMS) {
    const m = SCORE_MODELS[d.key];
    let mean = m.base + m.own * (quality - 0.5) + m.partner * (partnerQuality - 0.5) + m.task * taskEffect - m.judgeBias;
    // Secrets leak and rules break rarely, and more often for weaker models.
    if (d.key === "secret" && rng.chance(0.02 + 0.08 * (1 - quality))) mean = rng.normal(-4.5, 1.5);
    if (d.key === "social_rules" && rng.chance(0.04 + 0.1 * (1 - quality))) mean = rng.normal(-3, 1.2);
    out[d.key] = mean + rng.normal(0, m.sdTrue);
  }
  return out;
}

function withOverall(scores: Record<DimensionKey, number>): SotopiaScores {
  return {...scores, overall_score: overallScore(scores)};
}

// ---------------------------------------------------------------------------
// Text.

const fill = (template: string, self: Character, other: Character): string =>
  template.replaceAll("{O}", other.first).replaceAll("{N}", self.first);

const fullName = (c: Character): string => `${c.first} ${c.last}`;

const pronoun = (c: Character, kind: "subj" | "poss"): string =>
  ({"He/him": {subj: "he", poss: "his"}, "She/her": {subj: "she", poss: "her"}, "They/them": {subj: "they", poss: "their"}})[c.pronouns][kind];

function background(c: Character, withSecret: boolean): string {
  const text = `${fullName(c)} is a ${c.age}-year-old ${c.gender} ${c.occupation}. ${c.pronouns} pronouns. ${c.skill} ` +
    `Personality and values description: ${c.personality} ${c.decisions}.`;
  return withSecret ? `${text} ${c.first}'s secrets: ${c.secret}` : text;
}

function socialGoal([goal, extra, hint]: [string, string, string?]): string {
  return `${goal} (<extra_info>${extra}${hint ? ` <strategy_hint>${hint}</strategy_hint>` : ""}</extra_info>)`;
}

const plainGoal = (g: string): string => g.replace(/<\/?[a-z_]+>/g, "");

function context(sc: Scenario, chars: [Character, Character], viewer: Role): string {
  const [a, b] = chars;
  const goals = sc.goals.map((g, i) => (i === viewer ? plainGoal(socialGoal(g)) : "Unknown"));
  return `\nHere is the context of this interaction:\nScenario: ${sc.scenario}\nParticipants: ${fullName(a)} and ${fullName(b)}\n` +
    `${fullName(a)}'s background: ${background(a, viewer === 0)}\n${fullName(b)}'s background: ${background(b, viewer === 1)}\n` +
    `${fullName(a)}'s goal: ${goals[0]}\n${fullName(b)}'s goal: ${goals[1]}\nConversation Starts:\n`;
}

/** Sentences per utterance by model: stronger chat models talk more (SOTOPIA §7, words per turn). */
const VERBOSITY: Readonly<Record<string, [number, number]>> = {
  human: [0, 0], // people write shorter turns than models (SOTOPIA §7)
  "gpt-4": [0, 2],
  "gpt-3.5-turbo": [0, 1],
  "llama-2-70b-chat": [0, 2],
  "mistral-7b-instruct": [0, 0],
};

type Stage = keyof StageLines;

function utterance(rng: Random, sc: Scenario, role: Role, stage: Stage, self: Character, other: Character, model: string, style: SampleStyle): string {
  const parts: string[] = [];
  if (stage !== "open" && rng.chance(0.45)) parts.push(rng.pick(ACKS));
  const main = rng.pick(sc.lines[role][stage]);
  parts.push(main);
  const [lo, hi] = VERBOSITY[model] ?? [0, 1];
  const extra = rng.int(lo, hi) + (style === "realistic" ? rng.int(2, 4) : 0);
  // Extra sentences: generic elaborations, or another line of the same stage (never a repeat).
  const pool = [...ELABORATIONS, ...(stage === "open" || stage === "close" ? [] : sc.lines[role][stage].filter((l) => l !== main))];
  for (const line of rng.shuffle(pool).slice(0, extra)) parts.push(line);
  if ((stage === "push" || stage === "concede") && rng.chance(0.35)) parts.push(rng.pick(QUESTIONS));
  return fill(parts.join(" "), self, other);
}

/** Coarse level of a score, for picking a rationale: for secret and social rules any breach is already notable. */
const bucket = (d: Dimension, v: number): "low" | "mid" | "high" => {
  if (d.key === "secret" || d.key === "social_rules") return v === 0 ? "high" : v >= -3 ? "mid" : "low";
  const t = (v - d.lo) / (d.hi - d.lo);
  return t >= 0.7 ? "high" : t >= 0.4 ? "mid" : "low";
};

interface RationaleContext {
  self: Character;
  other: Character;
  goal: string;
  stake: string;
  learned: string;
}

/** The judge's short rationale for one score (the `reasoning` field's lines). */
function judgeRationale(rng: Random, d: Dimension & {key: DimensionKey}, v: number, x: RationaleContext, style: SampleStyle): string {
  const n = x.self.first, o = x.other.first, he = pronoun(x.self, "subj"), his = pronoun(x.self, "poss");
  const b = bucket(d, v);
  let text: string;
  switch (d.key) {
    case "believability":
      text = b === "high"
        ? `<naturalness> ${n} sounds like a real person in this situation and does not parrot ${o}. <consistency> The replies fit ${his} described temperament.`
        : b === "mid"
          ? `<naturalness> ${n} is mostly natural but turns stiff or overly polite in places. <consistency> Some replies do not quite match ${his} profile.`
          : `<naturalness> ${n} repeats phrases and sounds scripted. <consistency> The behaviour drifts away from the character.`;
      break;
    case "relationship":
      text = v > 0 ? `${n} and ${o} end the conversation on warmer terms than they started.`
        : v === 0 ? `The relationship between ${n} and ${o} is about where it began.`
        : `The exchange leaves friction between ${n} and ${o}.`;
      break;
    case "knowledge":
      text = b === "low" ? `${n} learns little that ${he} did not already know.` : `${n} learns ${x.learned}.`;
      break;
    case "secret":
      text = v === 0 ? `${n}'s secret (${lowerFirst(x.self.secret)}) stays hidden.`
        : v >= -3 ? `${n} drops a hint that comes close to ${his} secret.`
        : `${n} gives away ${his} secret: ${lowerFirst(x.self.secret)}`;
      break;
    case "social_rules":
      text = v === 0 ? `${n} breaks no social norms or rules.`
        : v >= -3 ? `${n} is dismissive of ${o} at one point, a small breach of courtesy.`
        : `${n} pressures ${o} with a veiled threat, a clear breach of social norms.`;
      break;
    case "financial_and_material_benefits":
      text = v > 0 ? `${n} comes away with ${x.stake}.`
        : v === 0 ? `Nothing material changes for ${n}.`
        : `${n} gives up money or resources in the end.`;
      break;
    case "goal":
      text = b === "high" ? `${n}'s goal was to ${lowerFirst(x.goal)}; this is essentially achieved.`
        : b === "mid" ? `${n}'s goal was to ${lowerFirst(x.goal)}; there is partial progress but no firm agreement.`
        : `${n}'s goal was to ${lowerFirst(x.goal)}; little progress is made.`;
      break;
  }
  if (style === "realistic") {
    text += ` Looking at the whole transcript, ${rng.pick(["the turns that matter most", "the final exchanges", "the way the conversation ends", "the opening and the closing turns"])} support a score of ${v} rather than a neighbouring value, since ${rng.pick(["the evidence is consistent across the conversation", "nothing later in the dialogue contradicts it", "the other agent's reactions confirm it"])}.`;
  }
  return text;
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1).replace(/\.$/, "");

/** Human annotators' short notes, by dimension and score level. */
const HUMAN_NOTES: Readonly<Record<DimensionKey, Record<"low" | "mid" | "high", readonly string[]>>> = {
  believability: {
    high: ["Felt like a real person.", "Natural, stayed in character."],
    mid: ["Mostly natural, a bit \"customer service\" in places.", "OK, some stiff lines."],
    low: ["Robotic, repeats itself.", "Did not sound like the character at all."],
  },
  relationship: {
    high: ["They clearly got closer.", "Warm ending, both happy."],
    mid: ["No real change.", "Polite, neither better nor worse."],
    low: ["Left things tense.", "Some resentment, I think."],
  },
  knowledge: {
    high: ["Found out something useful.", "Learned the key fact, asked good questions."],
    mid: ["Learned a little.", "Some new info, nothing big."],
    low: ["Learned nothing new.", "Didn't ask anything."],
  },
  secret: {
    high: ["Secret kept.", "Never came up."],
    mid: ["Hinted at it, but not obvious.", "Came close, didn't say it."],
    low: ["Said the secret outright.", "Gave it away, no reason to."],
  },
  social_rules: {
    high: ["Nothing rude or wrong.", "Fine, normal behaviour."],
    mid: ["A bit pushy, not terrible.", "One rude remark."],
    low: ["Threatening, not OK.", "Lied and pressured the other person."],
  },
  financial_and_material_benefits: {
    high: ["Came out ahead, money-wise.", "Got what they wanted materially."],
    mid: ["No money involved really.", "Even, no gain, no loss."],
    low: ["Lost money on this.", "Gave up more than needed."],
  },
  goal: {
    high: ["Got what they came for.", "Goal reached, clearly."],
    mid: ["Half there, \"we'll see\" ending.", "Some progress, no deal yet."],
    low: ["Didn't get anywhere.", "Goal mostly missed."],
  },
};

/** The judge's raw output for one agent, as the dump's prompt field shows it: {dimension: [rationale, score]}. */
function judgeJson(rationales: Record<DimensionKey, string>, scores: Record<DimensionKey, number>): Record<string, [string, number]> {
  return Object.fromEntries(DIMS.map((d) => [d.key, [rationales[d.key], scores[d.key]]]));
}

/** A judge-prompt stand-in written for the samples (not the original SOTOPIA prompt). */
function rewardsPrompt(judge: string, transcript: string, output: object, style: SampleStyle): string {
  if (style === "sample") {
    return `Prompt after formatting:\n\n[synthetic sample] ${judge} rated both agents on the seven SOTOPIA-EVAL dimensions; ` +
      `the judge prompt and output are not reproduced here (see reasoning and rewards).\n`;
  }
  const rubric = DIMS.map((d) =>
    `- ${d.key} (${d.name}): give an integer from ${d.lo} to ${d.hi}. First explain, in a few sentences, what in the transcript ` +
    `supports the score, quoting the turns that matter; then weigh the evidence for a higher and for a lower score; then settle ` +
    `on the integer. Scores at the ends of the range need clear evidence from several turns, not one remark.`).join("\n");
  return `Prompt after formatting:\n\n[synthetic benchmark padding written for Sociometer]\nYou are ${judge}, rating a role-play ` +
    `between two agents. Read the transcript, then rate each agent separately.\n\nTranscript:\n${transcript}\nRubric:\n${rubric}\n\n` +
    `Answer with one JSON object with the keys agent_1_evaluation and agent_2_evaluation, each mapping every dimension to a ` +
    `pair [reasoning, score].\n\n${rubric}\n\nJudge output: ${JSON.stringify(output)}\n`;
}

// ---------------------------------------------------------------------------
// Episodes.

/** Every ordered seating (agent 1 model, agent 2 model): each unordered pair in both seats, and self-pairs. */
export function seatings(models: readonly string[]): [string, string][] {
  return models.flatMap((a) => models.map((b) => [a, b] as [string, string]));
}

interface Task {
  scenario: Scenario;
  environmentId: string;
  chars: [Character, Character];
  agentIds: [string, string];
  /** Task difficulty in sd units: positive is easier. */
  effect: number;
}

const BASE_TIME = Date.UTC(2023, 8, 1); // ids look like ULIDs minted from September 2023 on

function makeTasks(rng: Random): Task[] {
  const charIds = CHARACTERS.map(() => rng.ulid(BASE_TIME - 86_400_000 * 30));
  const tasks: Task[] = [];
  for (const scenario of SCENARIOS) {
    const environmentId = rng.ulid(BASE_TIME - 86_400_000 * 10);
    for (let k = 0; k < 2; k++) {
      const [i, j] = rng.shuffle(CHARACTERS.map((_, idx) => idx)).slice(0, 2) as [number, number];
      tasks.push({
        scenario, environmentId, chars: [CHARACTERS[i]!, CHARACTERS[j]!], agentIds: [charIds[i]!, charIds[j]!],
        effect: rng.normal(0, 0.8),
      });
    }
  }
  return tasks;
}

interface Draw {
  record: SotopiaDumpRecord;
  /** Latent true score per seat and dimension, before the judge's bias and noise. */
  truth: [Record<DimensionKey, number>, Record<DimensionKey, number>];
}

type Ending = "leave" | "stale" | "too_long";

/** One synthetic episode. */
function episode(rng: Random, index: number, task: Task, models: [string, string], judge: string, style: SampleStyle): Draw {
  const {scenario: sc, chars} = task;
  const names = chars.map(fullName) as [string, string];
  const q = models.map((m) => MODEL_QUALITY[m] ?? 0.5) as [number, number];

  // Scores first, so the dialogue can follow them.
  const truth = [latentScores(rng, q[0], q[1], task.effect), latentScores(rng, q[1], q[0], task.effect)] as Draw["truth"];
  const judged = truth.map(() => {
    const s = {} as Record<DimensionKey, number>;
    return s;
  }) as [Record<DimensionKey, number>, Record<DimensionKey, number>];
  // The judge reads people less reliably than models (SOTOPIA Table 1: correlations drop for human-played agents).
  ([0, 1] as const).forEach((seat) => {
    const noise = models[seat] === HUMAN ? HUMAN_JUDGE_NOISE : 1;
    for (const d of DIMS) judged[seat][d.key] = drawScore(rng, d, truth[seat][d.key] + SCORE_MODELS[d.key].judgeBias, SCORE_MODELS[d.key].sdJudge * noise);
  });

  // Transcript: seat 1 acts on even turns, seat 2 on odd ones.
  const turns = 6 + Math.floor(15 * rng.next() ** 2); // 6 to 20, mostly short, like the dump
  const ending: Ending = turns === 20 ? "too_long" : rng.chance(0.7) ? "leave" : "stale";
  const raw: Triple[][] = [];
  const interactions: string[] = [];
  let observation: string | null = null;
  for (let t = 0; t < turns; t++) {
    const seen = observation; // what the previous turn showed both agents
    const obs = (viewer: Role): string => (t === 0 ? context(sc, chars, viewer) : `Turn #${t - 1}: ${seen ?? ""}\n`);
    const actor = (t % 2) as Role;
    const self = chars[actor], other = chars[1 - actor]!;
    const last = t === turns - 1;
    let action: string;
    if (last && ending === "leave") {
      action = "left the conversation";
      observation = `${names[actor]} left the conversation`;
      interactions.push(`${names[actor]}: left the conversation`);
    } else if (last && ending === "stale") {
      action = "did nothing";
      observation = null;
    } else if (t > 1 && !last && rng.chance(0.08)) {
      const gesture = rng.pick(NON_VERBAL);
      action = `[non-verbal communication] ${gesture}`;
      observation = `${names[actor]} ${action}`;
      interactions.push(`${names[actor]}: ${action}`);
    } else if (t > 1 && !last && rng.chance(0.04)) {
      const act = `${rng.pick(sc.actions)}`;
      action = `[action] ${act.charAt(0).toUpperCase()}${act.slice(1)}`;
      observation = `${names[actor]} ${action}`;
      interactions.push(`${names[actor]}: ${action}`);
    } else {
      const winning = judged[actor].goal >= 6;
      const stage: Stage = t < 2 ? "open" : last || t >= turns - 2 ? "close"
        : t < turns / 2 ? rng.pick(["push", "push", "respond"] as const)
        : winning ? rng.pick(["push", "respond"] as const) : rng.pick(["concede", "respond"] as const);
      const text = utterance(rng, sc, actor, stage, self, other, models[actor], style);
      action = `said: "${text}"`;
      observation = `${names[actor]} said: "${text}"`;
      interactions.push(observation);
    }
    raw.push([
      ["Environment", names[0], obs(0)],
      ["Environment", names[1], obs(1)],
      [names[0], "Environment", actor === 0 ? action : "did nothing"],
      [names[1], "Environment", actor === 1 ? action : "did nothing"],
    ]);
  }
  const finalObs = `Turn #${turns - 1}: ${observation ?? ""}\n`;
  raw.push([["Environment", names[0], finalObs], ["Environment", names[1], finalObs]]);

  const leaver = ((turns - 1) % 2) + 1;
  const reason = ending === "too_long" ? "The conversation is too long" : ending === "stale" ? "The conversation stales for too long" : `Agent ${leaver} is leaving`;
  const rationales = ([0, 1] as const).map((seat) => {
    const x: RationaleContext = {
      self: chars[seat], other: chars[1 - seat]!, goal: sc.goals[seat][0], stake: sc.stakes[seat], learned: sc.learns[seat],
    };
    return Object.fromEntries(DIMS.map((d) => [d.key, judgeRationale(rng, d, judged[seat][d.key], x, style)])) as Record<DimensionKey, string>;
  });
  const reasoning = `Environment comments: terminated: ${reason}; \n` +
    rationales.map((r, i) => `Agent ${i + 1} comments:\n${DIMS.map((d) => `${d.key}: ${r[d.key]}`).join("\n")}\n`).join("");
  const socialInteractions = interactions.map((l) => `${l}\n\n`).join("");
  const judgeOutput = {agent_1_evaluation: judgeJson(rationales[0]!, judged[0]), agent_2_evaluation: judgeJson(rationales[1]!, judged[1])};
  const rewards = [withOverall(judged[0]), withOverall(judged[1])] as [SotopiaScores, SotopiaScores];

  const record: SotopiaDumpRecord = {
    episode_id: rng.ulid(BASE_TIME + index * 137_000),
    environment_id: task.environmentId,
    agent_ids: [...task.agentIds],
    experiment_tag: `synthetic_${judge}_${models[0]}_${models[1]}_v1`,
    experiment_model_name_pairs: [judge, models[0], models[1]],
    raw_messages: raw,
    raw_rewards: rewards.map((r) => [r.overall_score, {...r}] as [number, SotopiaScores]),
    raw_rewards_prompt: rewardsPrompt(judge, socialInteractions, judgeOutput, style),
    scenario: sc.scenario,
    codename: sc.codename,
    agents_background: {[names[0]]: background(chars[0], true), [names[1]]: background(chars[1], true)},
    social_goals: {[names[0]]: socialGoal(sc.goals[0]), [names[1]]: socialGoal(sc.goals[1])},
    social_interactions: socialInteractions,
    reasoning,
    rewards,
    synthetic: true,
  };
  return {record, truth};
}

function* draws({seed, count, style = "sample", models = SAMPLE_MODELS, judge = SAMPLE_JUDGE}: EpisodeOptions, order = seatings(models)): Generator<Draw> {
  const rng = new Random(`sotopia:${seed}`);
  const tasks = makeTasks(rng.fork("tasks"));
  for (let i = 0; i < count; i++) {
    const seating = order[i % order.length]!;
    yield episode(rng, i, rng.pick(tasks), seating, judge, style);
  }
}

/**
 * Synthetic episodes in the public SOTOPIA dump shape, one at a time, so that
 * callers can stream millions of them. Episode i is played by seating
 * i mod 16 (with four models).
 */
export function* sotopiaEpisodes(options: EpisodeOptions): Generator<SotopiaDumpRecord> {
  for (const d of draws(options)) yield d.record;
}

/** The model name of a seat played by a person. */
export const HUMAN = "human";
const HUMAN_JUDGE_NOISE = 1.8;

/** Seatings with people, as in SOTOPIA's human study: GPT-4 with a human, a human with GPT-4, two humans. */
export const HUMAN_SEATINGS: readonly [string, string][] = [["gpt-4", HUMAN], [HUMAN, "gpt-4"], [HUMAN, HUMAN]];

/**
 * The committed samples: episodes among models, plus episodes with human
 * players; all judged by GPT-4. Human annotators rate a random subset of the
 * model episodes and every episode with a human player.
 */
export function sotopiaSamples({seed, perSeating = 13, annotated = 60, annotators = 8, models = SAMPLE_MODELS, perHumanSeating = 8}: SampleOptions): SotopiaSamples {
  const modelOnly = [...draws({seed, count: perSeating * models.length ** 2, models})];
  const withPeople = [...draws({seed: `${seed}:people`, count: perHumanSeating * HUMAN_SEATINGS.length, models}, [...HUMAN_SEATINGS])];
  const all = [...modelOnly, ...withPeople];
  const rng = new Random(`human:${seed}`);
  const pool = Array.from({length: annotators}, (_, i) => `annotator-${String(i + 1).padStart(2, "0")}`);
  const offsets = new Map(pool.map((r) => [r, Object.fromEntries(DIMS.map((d) => [d.key, rng.normal(0, 0.35)])) as Record<DimensionKey, number>]));
  const chosen = new Set([...rng.shuffle(modelOnly.map((_, i) => i)).slice(0, annotated), ...withPeople.map((_, i) => modelOnly.length + i)]);
  const humanRatings: HumanRating[] = [];
  all.forEach(({record, truth}, i) => {
    if (!chosen.has(i)) return;
    const raters = rng.shuffle(pool).slice(0, rng.chance(0.35) ? 3 : 2).sort();
    for (const agent of [1, 2] as const) {
      for (const d of DIMS) {
        for (const rater of raters) {
          const value = drawScore(rng, d, truth[agent - 1][d.key] + offsets.get(rater)![d.key], SCORE_MODELS[d.key].sdHuman);
          humanRatings.push({episode_id: record.episode_id, agent, dimension: d.key, rater, value, rationale: rng.pick(HUMAN_NOTES[d.key][bucket(d, value)])});
        }
      }
    }
  });
  return {episodes: all.map((d) => d.record), humanRatings};
}

/** Episodes as JSONL: one JSON object per line, newline-terminated. */
export function toJsonl(records: Iterable<object>): string {
  let out = "";
  for (const r of records) out += `${JSON.stringify(r)}\n`;
  return out;
}

const csvField = (v: string | number): string => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** Human ratings as RFC 4180 CSV with the header episode_id,agent,dimension,rater,value,rationale. */
export function humanRatingsCsv(rows: readonly HumanRating[]): string {
  const header = "episode_id,agent,dimension,rater,value,rationale\n";
  return header + rows.map((r) => [r.episode_id, r.agent, r.dimension, r.rater, r.value, r.rationale].map(csvField).join(",") + "\n").join("");
}
