/** Plain English prose for generated benchmark pages (written for this benchmark, no copyright). */
export const PARAGRAPHS = [
  'The river authority met on Thursday to review the spring flood plan. Engineers reported that the new levee held during the March storms, although two pumping stations lost power for several hours and had to be restarted by hand.',
  'Farmers along the lower valley welcomed the news but asked for earlier warnings. Last year the alarm reached some villages only forty minutes before the water, which left little time to move animals and machinery to higher ground.',
  'A survey of 1,240 households found that most families keep an emergency bag ready. Fewer than half, however, knew where the nearest shelter was, and only one in five had practised the route with their children.',
  'The library reopens on Monday after a six month renovation. Visitors will find a brighter reading room, a quiet study floor and a small cafe near the entrance, together with longer opening hours on weekday evenings.',
  'Most of the budget went on the roof and the heating, which had not been replaced since 1978. The architects kept the original oak shelves and the tiled floor of the main hall, both of which were cleaned and repaired.',
  'Local schools have already booked the new workshop space for coding clubs and history projects. The first exhibition, a collection of old maps and photographs of the harbour, opens on the 14th and runs until the end of June.',
  'Researchers measured the growth of young oak trees in three forests over ten years. Trees planted near older oaks grew faster and survived dry summers better, possibly because they shared water and nutrients through fungi in the soil.',
  'The results suggest that replanting projects should keep some mature trees standing. Clearing a whole site and starting again may look tidy, but it removes the network that helps seedlings through their first difficult years.',
  'Train services between the two cities will be reduced during the bridge repairs. Passengers should expect a replacement bus on Sundays and allow an extra thirty minutes for journeys that change at the central station.',
  'The operator says the work is needed to replace steel beams that have rusted faster than expected. Tickets bought before the changes were announced can be refunded in full at any ticket office or through the customer service line.',
  'In the kitchen, simple tools often work best. A sharp knife, a heavy pan and a wooden spoon will cook most meals, while gadgets that promise to save time frequently end up at the back of a cupboard after a few weeks.',
  'Bread needs only flour, water, salt and yeast, yet small changes in time and temperature give very different loaves. A slow overnight rise in a cool room develops flavour and a crust that stays crisp for a day or more.',
];

export const NAMES = [
  'Anderson, Paul', 'Baker, Maria', 'Chen, Wei', 'Dubois, Claire', 'Evans, Tom', 'Fischer, Anna', 'Garcia, Luis',
  'Hughes, Emma', 'Ito, Kenji', 'Jensen, Lars', 'Kowalski, Piotr', 'Lopez, Sofia', 'Murphy, Sean', 'Novak, Eva',
];
export const STREETS = ['Mill Road', 'Church Lane', 'High Street', 'Station Road', 'Park Avenue', 'Green Close', 'Bridge Street'];
export const ITEMS = [
  'Whole milk 1L', 'Sourdough loaf', 'Free range eggs', 'Cheddar cheese', 'Green apples', 'Coffee beans', 'Olive oil',
  'Tomato passata', 'Brown rice 1kg', 'Dark chocolate', 'Orange juice', 'Butter 250g',
];
