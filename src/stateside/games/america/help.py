"""America's rules page (Help > Rules), in our own words, with what is our design."""

HELP_HTML = """
<h2>America</h2>
<p>A trivia game played on the map. Each card has a topic and three questions: a <b>year</b>,
a <b>state</b> and a <b>number</b>. You do not need to know the answers exactly: markers close
to an answer score too. Six cards make a game; the most points wins.</p>
<h3>A card, step by step</h3>
<ol>
<li><b>Start player.</b> The first card is read by the player chosen on the New game screen ("Who starts")
(Red unless you pick another; the screen also names each seat and makes it a person or a computer); after that the role
moves one seat clockwise (down the score
list) each card. The start player places last.</li>
<li><b>Choose a topic.</b> The start player sees two topics (questions only, never the answers)
and picks one to play. The one not picked stays in the box for later. The card also tells
whether the state lies east or west of the Mississippi: the other side of the map is hatched.
A marker may still go there (it can score 3 next to the answer); the first time in a game you
place one there, you are asked to confirm.</li>
<li><b>Place markers.</b> Starting with the player after the start player, each player in turn
places one marker: on a free state (click it on the map, or type its name and press Enter),
on a free space of the year or number bar under the map, or on one of the six
<i>No Exact</i> spaces at the right of the bars. One marker per space. Your first marker on a
card is compulsory; after that you may place another on each turn, or <b>Pass</b> (Ctrl+P).
Once you pass you place no more on this card. When everyone has passed, the card is scored.</li>
<li><b>Score</b> the year, then the state, then the number:
<ul>
<li>7 points for each marker on the exact space, 3 for each marker on a space next to it.
On the bars, "next to" means the neighbouring space; on the map, a bordering state.</li>
<li><i>No Exact</i>: 3 points if nobody's marker is on the exact space of that section.</li>
<li><i>No Exact or Adjacent</i>: 7 points if nobody's marker is on the exact space or next to it.</li>
</ul></li>
</ol>
<h3>Markers</h3>
<p>Everyone has five markers to place (a sixth keeps your score). Markers that scored come back
to you. The others wait in a non-scoring supply (small grey squares on the score track, after
the coloured dots of the markers in hand); after each
card you get one of them back, and if you then hold fewer than three you take back enough to
hold three.</p>
<h3>Winning and ties</h3>
<p>After the sixth card the highest score wins. On a tie, the player with more markers in hand
as the sixth card is scored wins (counted before the one marker back and the refill to three). If that is tied too, the
tied players play a showdown card with all five markers each;
showdowns repeat, each read by the next tied player, until one player scores more.</p>
<h3>Map adjacency</h3>
<p>States are next to each other when they share a border line. Arizona and Colorado, and Utah
and New Mexico, only touch at a point and are not neighbours. Delaware borders Maryland,
Pennsylvania and New Jersey; Michigan borders Wisconsin; Connecticut does not border New Jersey;
states facing each other across the Mississippi are neighbours. Alaska and Hawaii count as
neighbours of each other, and of no other state. After a card is scored the answer state is gold
on the map and its neighbours light gold.</p>
<h3>What is ours</h3>
<p>The cards (topics, questions, answers, background lines and sources) are written for
Stateside, and so are the year and number bars: the year bar runs from 1492 to 2015 (later years
score on 2015), and the number bar from 0 to 1B in steps of 1-2-5, then 1M, 10M, 100M, 1B.
Each space covers its own value up to the next space's value; hover a space to see its range.
A game draws whole cards, so the two sides of one card never come up in the same game. The
cards you have played are remembered between games: no card comes back until every card has been
played, and then each shows its other side.
Game &gt; Add deck… adds your own cards: a YAML file written like ours (the README names the
format and ships an example); its cards join the box of new games, and Game &gt; Remove deck…
takes them out. A saved game that drew cards from an added deck opens only while it is added.
The computer players "know" each answer more or less closely depending on their level, and
bet on the No Exact spaces when the markers already placed look wrong to them. Medium and hard
players also read the table, as people do: the others' first markers on a section are clues to
where the answer lies.</p>
<h3>The move log and replays</h3>
<p>Every move so far is listed under the score track, newest last, the computers' included,
each with its player's colour; point at a line to see that marker framed on the map or the
bars. Game &gt; Replay… (or "Replay this game" at the end) steps through a finished or saved
game on the same board.</p>
<p><b>Moves you can follow.</b> A marker placed on a state comes down onto it. A dashed ring in a player's colour marks
that player's last move on the map until their next. View &gt; Animations sets the speed (Fast, Normal) or turns the
moves off; a click or a key never waits for a move to end.</p>
<h3>Keys</h3>
<p>Ctrl+1 / Ctrl+2 choose a topic; Ctrl+P passes; Ctrl+Enter goes to the next card; Tab into
the bars, then the arrow keys and Enter place a marker there; type a state's name and press
Enter to place on the map (wherever the keyboard focus is); Ctrl+Z takes back your last marker or pass on the current
card, while nobody else has played since; Ctrl+N starts a new
game; F1 shows these rules.</p>
"""
