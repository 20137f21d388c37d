"""A list of common English words that no invented word may be.

Kept apart from :mod:`~adamm.eval.invented.words` because it is data: the short words every
dictionary has, and the one- and two-syllable words the syllable generator can spell
("tram", "gran", "lemon"). Built in rather than read from a system dictionary, so the
vocabulary of a seed is the same on every machine.
"""

from __future__ import annotations

ENGLISH: frozenset[str] = frozenset("""
I a about above after again against ago air all almost alone along already also always am among an and animal
ankle another answer any anything apple are area arm around art as ash ask at away baby back bacon bad bag bake
bald bale ball ballot band bandit banish bank bar bard bark barn baron barrel base basil basin bask basket bass
bat bath battle be bead beak beam bean bear beat beck bed bee beef been beer before began begin behind being
bell below belt bend bent best bet better between bevel big bike bill bird bison bit bite bitter black blade
blank bless blind block blood blow blue board boat body bold bolt bond bone bonnet book boom boon boot bore born
boss both bottle bottom bound bout bowl box boy brain bran brand brat brave bread break brew brick bridge brief
bright brim bring brink brisk broad broke broken brook broom brother brow brown brush buck bucket budget build
built bulk bull bump bundle bunk burn burst bus bush bust busy but butter button buy by cabin cable cake call
came camel camp can canal candle cap car card care carpet carrot carry case cash cast cat catch cattle cause
cedar cell chain chair chalk champ chance change chant chap char chard charge chart chase chat cheap cheat check
cheek cheer chess chest chew chick chicken chide chief child chill chime chin chink chip chirp chit choke choose
chop chord chore chose chosen chow chug chum chunk church churn chute circle city claim clam class clay clean
clear clerk click cliff climb clock close closet cloth cloud club coal coast coat code coin cold color come
comet cook cool cop copy core corn cost could count country course court cousin cover cow crab crack craft crank
crash cream crew crisp crop cross crow cry cup cut dad dam dame damp dance dank dare dark darn dart dash date
dawn day dead deal dean dear debt deck deed deem deep deer dell den denim dent desk did die dig dill dim dime
dine dinner dip dire dirt dish disk do dock does dog doll dome done doom door dorm dose dot dove down dozen drab
drag dram drank draw drawn dread dream dress drew drift drill drink drip drive driven drone drop drown drug drum
dry dual duck duct dud due duel dull dumb dump dune dung dunk during dusk dust duty each ear early earth east
easy eat edge egg eight eleven else end enough even ever every eye fable face fact fade fail faint fair fall
fame fang far farm fast fat father fawn fear feat fee feed feel feet fell felt fennel fern fest fetish few
fiddle field fig fight fill film find fine finger finish fire firm first fish fist fit five fix flab flag flak
flank flap flash flask flat flaw flea fled flee flesh flew flex flick flint flip flit float flock flog flood
floor flop floss flour flout flow flower flue flung flush fly foal foam foil fold folk follow fond font food
fool foot for force ford fork form fort foul found four fowl fox frank frat fray free fresh fret friend frill
frisk frock frog from front frost froth frozen fruit fuel full fume fun fund funk funnel fur furl fuse fuss
gadget gain gait gale gall gallon game gang gap garden garnish gas gash gasp gate gaunt gave gawk gear geek
gentle get gift gild gill gilt gird girl gist git give given glad glare glass glee glen glib glint gloat gloom
gloss glove glow glue glum gnaw go goad goal goat goblet god gold golf gone gong good goon gore gosh gossip got
gown grab grade grail grain gram gran grand grant grasp grass grate grave gravel gray graze great greed green
greet grew grey grid grief grill grim grin grind grip grist grit groan groom gross ground group grout grove grow
growl grown grub grunt gull gullet gulp gum gun gush gust guy had hair half hall hamlet hand handle hang happy
hard harm has hat have haven he head hear heat held hell helmet help hen her here hermit hero high hill him his
hit hold hole home hook hope horse host hot hotel hour house how hug huge hulk hum humble humid hunt hurt husk
ice idea if ill in ink inn into iron is island it its jab jack jacket jade jail jam jamb jar jaw jeer jell jerk
jest jet jilt jinx jive job jock jog join joint joke jolt joust jowl joy judo jug juke jumble jump jungle junk
jury just jute keel keen keep kelp kennel kept kern kettle key kick kid kill kiln kilt kind king kink kiss kit
kitchen kitten knack knead knee knelt knew knob knock knot know lab lack lad ladder lady laid lair lake lamb
lame lamp land lane lank lantern lap lard large lark lash lass last late lavish law lawn lay lead leaf leak lean
leap learn least leave led leek left leg lemon lend lens lent less lesson lest let letter level lick lid lie
life lift light like lilac lilt limb lime line linen link lint lion lip liquid list little live livid load loaf
loam loan lock locket loft log loin lone long look loom loon loop loot lord lore lose loss lot loud lout love
low luck lull lump lunar lung lurid lurk lush lust made magnet maid mail maim main major make male mall malt man
mane manor many map mark market marl mart mash mask mass mast master mat match mate matter may maze me mead meal
mean meat medal meek meet melon melt men mend mesh mess met metal mid middle might mild mile milk mill mime mind
mine mink minor mint mire mirror miss mist mitten mix moan moat mob mock modal model molar mold mole molt mom
money monk month mood moon moor moot mop more morsel moss most motel moth mother mould mound mount mourn mouse
mouth move much muck mud muffin mug mule mull mullet murk muse mush musk mussel must mute my nail name nap nape
near neat neck need nerd nest net never new newt next nib nice nick night nimble nine no noble nod nodal node
none nook noon nor norm north nose not note noun novel now nude nugget null numb number nut nylon oak odd of off
often oil old on once one only open or other our out over own pace pack packet pact pad page paid pail pain pair
pal pale pallet palm pan pane panel pang pant parish park parrot part pass past pat path pave paw pawn pay pea
peak peal pear peat peck pedal peek peel peer pellet pelt pen pend people perish perk person pest pet petal pick
pie pier pig pike pile pill pilot pin pine pink pint pipe pit place plain plan plank plant plat plate play plea
plead pled plot plow ploy pluck plug plum plume plump plunk plus pocket pod point poison poke polar pole polish
poll pond pony pool poor pop pore pork port pose posh post pot pound pour pout power pram prank prawn pray press
prey price prick pride prim print prism prison prize prod prom prone prong proof prop prose prow prowl prude
prune pub puffin pull pulp pump punish punk punt pup puppet pure purple purr push put quack quad quail quake
qualm quart queen queer quell quest quick quid quiet quill quilt quirk quit quite quiz quota quote rabbit race
rack racket radar radish rag raid rail rain raisin rake ram ramp ran rang rank rant rapid rare rash rasp rat
rate rave raven raw ray read real ream reap rear reason red reed reef reek reel rein relish rend rent rest rib
ribbon rice rich rick rid riddle ride rife rift rile rill rind ring rink riot rip ripe rise risk rite rival
riven river rivet road roam roar rob robe robin rock rocket rod rode role roll romp roof rook room root rope
rose rot rotor rout rove row rub rude rug ruin rule rump run rune rung runt ruse rush rusk rust sack sad safe
sage said sail sake salad sale salmon salon salt same sample sand sandal sane sang sank sash sat satin save saw
say scab scale scar school scuff sea seal seam sear season seat sect see seed seek seem seen seep self sell send
sent set seven shack shaft shake shall shame shank shape shard share shark sharp shawl she shed sheen sheep
sheer sheet shelf shell sherbet shift shin shine ship shirt shoal shock shod shoe shone shook shoot shop shore
short shot should shout shove show shred shrew shrub shrug shun shunt shut sick side sift sigh sign silk sill
silt silver simple sing single sink sir sire siren sister sit sitar site six size skein ski skid skill skillet
skim skin skip skirt skit skulk skull skunk sky slab slack slag slain slam slang slant slap slash slat slate
slay sled sleek sleep sleet slept slew slid slim slime sling slink slip slit slob slog slop slosh slot sloth
slow slug slum slump slung slunk slur slush smack small smart smash smell smelt smile smirk smith smock smog
smoke smug snack snag snail snake snap snare snarl sneak sneer sniff snip snob snoop snore snort snot snout snow
snub snuck snuff so soak soap soar sock socket soda sofa soft soften soil solar sold sole solid solo some son
sonar song sonnet soon soot sore sort soul sound soup sour south sown span spank spin spoken spot spud squid
stab stable stack staff stag stain stair stake stale stalk stall stamp stand stank star stark start stash state
stay stead steak steal steam steel steep steer stem step stern stew stick stiff still stilt sting stink stint
stir stock stoke stole stomp stone stood stool stoop stop store stork storm story stout stove stream street
strong stub stuck study stump stun stung stunk stunt such suck suit sulk sultan sum summer summit sun sung sunk
supper sure surf swam swamp swan swap swat sway swear sweat sweep sweet swell swept swift swim swine swing swirl
swish swoop sword tab table tablet tack tact tail take taken tale talk tall talon tame tan tank tap tape tar
tare target tarn tarot tart task tassel taut tea teach teak teal team tear teem teen tell temple ten tend tenor
tent tepid term tern test than thank that thaw the thee their them then there these they thick thin thing think
this thorn those though three threw throw thud thug thump tick ticket tidal tide tidy tie tier tile till tilt
time timid tin tine tinkle tint tip tire title to toad toe together toil token told toll tom tomb tome tone tong
too took tool toot top tore torn toss total tote touch tour tout town toy trace track tract trade trail train
trait tram tramp trap trash travel tray tread treat tree trek trend tress trial tribe trick tried trill trim
trio trip trite troll tromp troop trot trout truce truck true trumpet trunk truss trust truth try tub tube tuck
tuft tug tulip tumble tuna tune tunnel turf turn tusk twig two type uncle under unit until up upon us use vain
vale valid valor van vandal vane vanish vase vast veal veer veil vein velvet vend vent verb very vessel vest vet
vial vice view vile vine violet visit vital vivid voice void vole volt vote wade wage wail wait wake wale walk
wall wallet wand wane want war ward ware warm warn warp wart wary was wash wasp watch water watt wave way we
weak weal wean wear web wedge weed week weep weld well welt wend went wept were west wet what wheat wheel when
where whet which while whim whip whir white who whole why wick wide wife wild will wilt wily win wind wine wing
wink winter wipe wire wise wish wisp with wok woke woken wolf woman womb won wonk wood wool word wore work world
worm worn would wove wrap write yank yard yarn year yelp yes yet you young your zany zeal zero zest zinc zing
zip zone zoo zoom
greek nope wank weskit loll lolling prem slut piss shit crap damn fart poop dong dork
""".split())
