/**
 * Word lists for name extraction. All entries are lower-case and without accents (lookups fold
 * accents first), so "sábado" and "sabado" are both caught by "sabado".
 */

const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Words that can never be (part of) a person's name in these messages. */
export const NOT_A_NAME = list(`
  hi hello hey hola buenas buenos dias tardes noches morning afternoon evening good thanks thank gracias
  please por favor ok okay yes no si sure dear regards saludos cheers
  monday tuesday wednesday thursday friday saturday sunday weekend today tomorrow tonight yesterday
  lunes martes miercoles jueves viernes sabado domingo hoy manana ayer
  january february march april may june july august september october november december
  enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
  unit units apt apartment apartments apartamento apartamentos depto departamento unidad studio estudio
  bedroom bedrooms bed beds bath baths bathroom room rooms loft townhome townhomes penthouse condo house
  pool gym parking garage office lobby building floor plan plans lease rent deposit tour tours amenities
  recamara recamaras habitacion habitaciones bano banos piscina gimnasio estacionamiento oficina renta
  interested interesada interesado interesting looking calling writing texting reaching asking wondering
  trying checking moving living staying working available ready new here there still also just really
  so very too not sorry glad happy good fine great well sick tired frustrated upset confused concerned
  urgent emergency important serious broken leaking about regarding re for from at in on of to with by
  and or but the a an my your his her their our its this that these those it i im me we us you he she they
  who what when where why how which is are was were be been am do does did have has had will would can
  could should may might must need want like love let get got make take going
  maintenance management leasing team staff crew familia family
  mantenimiento administracion gerencia recepcion seguridad vigilancia limpieza conserjeria porteria
  tenant tenants resident residents owner landlord manager agent neighbor roommate wife husband mom dad
  mother father son daughter family friend student nurse doctor teacher someone somebody anyone everyone
  y o de del la las el los un una unos unas en con para por que mi mis tu su sus es son soy esta estoy
  muy mas tambien ya aqui alli nuevo nueva nuevos estudiante inquilino inquilina residente propietario
  propietaria dueno duena esposo esposa mama papa hijo hija amigo amiga vecino vecina senor senora
  quiero busco necesito tengo vivo trabajo llamo escribo pregunto interesa gusta puedo quisiera
  ingles espanol english spanish latino latina americano americana cubano cubana mexicano mexicana
  miami florida texas california york near cerca yo quien alguien
  jaja jajaja jeje jejeje lol haha hahaha xoxo jk xd besos abrazos
  queja quejas ruido porton principal fuga problema pregunta solicitud reparacion ayuda consulta aviso
  reporte plagas basura ventana puerta llave elevador alberca calentador estufa urgente emergencia correo
  sobre desde hasta entre sin hacia segun durante acerca respecto
  todo toda todos todas bien mal nada nadie algo mucho mucha muchos muchas poco poca otro otra otros otras
  mismo misma cada bendiciones bendicion blessings atentamente cordialmente sinceramente respetuosamente
  sincerely respectfully
`);

/**
 * Common words that are also given names ("I'm Will", "I'm Hope", "I'm Joy"): the lexicon knows them
 * as other words, so they count as a name only where a name is expected and written with a capital
 * (any case after "my name is").
 */
export const WORD_NAMES = list(`
  will hope joy faith grace mark rose ray summer dawn hunter bill pat sue art bob chase drew dean gene
  guy jack jay rich victor penny ivy iris holly lily daisy violet pearl ruby amber jade crystal destiny
  angel precious harmony melody trinity serenity charity patience honor autumn buck cliff wade grant
  frank earl sonny candy brandy luz paz rocio sol blanca
  dolores milagros consuelo pilar rosario socorro mercedes esperanza
  jean jasmine finn hazel olive robin reed sandy randy rusty dusty misty poppy coral maya alma
`);

/**
 * Spanish given names that are also words ("luz", "paz", "rocío"): after "soy" even in lower case, if
 * the name then visibly ends ("hola, soy rocio, necesito informes").
 */
export const SPANISH_WORD_NAMES = list(`luz paz rocio sol dolores milagros consuelo pilar rosario socorro mercedes esperanza`);

/**
 * Words written after "soy" / "I'm" that the (English) lexicon does not know and whose ending does
 * not give them away ("soy madre soltera", "soy joven", "im tryna"): never a lower-case name. The
 * Spanish ones describe people (looks, character, family, work, origin); the English ones are chat
 * slang and adjectives the lexicon lacks.
 */
export const NOT_A_NAME_AFTER_INTRO = list(`
  madre padre hombre mujer chica chico persona parte miembro joven mayor menor agente cliente militar
  policia chofer maestro maestra abuelo abuela viudo viuda sola solo feliz pobre rico rica bilingue
  huesped profesional honesto honesta limpio limpia tranquilo tranquila serio seria trabajador
  trabajadora fumador fumadora vendedor vendedora contador contadora bastante capaz puntual hispano
  mama papa arquitecto arquitecta medico medica cocinero cocinera empleado empleada gerente dueno
  inmigrante ama amo bueno buena malo mala alto alta bajo baja flaco flaca gordo gorda guapo guapa
  bonito bonita lindo linda feo fea sano sana fuerte debil triste contento contenta loco loca viejo
  vieja rubio rubia moreno morena blanco blanca negro negra gringo gringa nica tico tica boricua paisa
  chilango chilanga rolo rola costeno costena maracucho maracucha catracho catracha chapin zurdo zurda
  consciente paciente decente amable sencillo sencilla humilde alegre educado educada independiente
  libre mayorcito mayorcita nuevito nuevita vegano vegana vegetariano vegetariana ciego ciega sordo
  sorda embarazada enfermo enferma discapacitado discapacitada jubilado jubilada pensionado pensionada
  hijo hija nieto nieta sobrino sobrina tio tia primo prima hermano hermana novio novia pareja
  cunado cunada suegro suegra yerno nuera vecino vecina inquilino inquilina arrendatario arrendataria
  dominicano dominicana puertorriqueno puertorriquena salvadoreno salvadorena hondureno hondurena
  guatemalteco guatemalteca nicaraguense costarricense panameno panamena peruano peruana ecuatoriano
  ecuatoriana argentino argentina chileno chilena uruguayo uruguaya paraguayo paraguaya boliviano
  boliviana espanol espanola brasileno brasilena estadounidense canadiense europeo europea
  fan fans representante asistente comerciante ayudante dependiente
  muslim jewish hindu buddhist sikh atheist agnostic lgbt lgbtq gay lesbian trans queer hispanic latinx asian
  testigo testiga dreamer adventista catolico catolica evangelico evangelica mormon musulman musulmana judio judia
  crazy awful vegan vegetarian tryna finna gonna wanna outta lowkey highkey literally basically
  honestly actually kinda sorta totally def prob bout abt tho though stressed anxious broke homeless
  jobless pregnant preggo single divorced retired disabled deaf blind military veteran vet
  btw tbh fyi pls plz thx ty asap rn idk omg smh imo bc cuz lmao lmfao rofl ngl fr
`);

/** Words after a lower-case name that show it ended there ("soy xiomara, el...", "soy ana y ..."). */
export const AFTER_NAME_WORDS = list(`
  y e and from del de in en here aqui again otra vez i im my mi me tel cel from el la with con but pero
`);

/** Vietnamese names: family name, then "Van" or "Thi", then the given name ("Nguyen Van An"). */
export const VIETNAMESE_FAMILY = list(`
  nguyen tran le pham hoang huynh phan vu vo dang bui do ho ngo duong ly truong dinh lam cao mai luong
  trinh doan
`);
export const VIETNAMESE_MIDDLE = list(`van thi`);

/**
 * Months and a day that are also given names ("April Johnson", "Julio Martínez", "Domingo Pérez"):
 * a name after "my name is" or "I'm", otherwise only written with a capital before a surname
 * ("this is June Park"; "it's May already" names no one).
 */
export const DATE_NAMES = list(`april may june august abril mayo junio julio domingo`);

/** Links inside Arabic names, written with a capital ("Youssef El Amrani", "Omar Abu Bakr"): kept between name words. */
export const NAME_LINKS = list(`el al abu ben bin ibn abd abdel abdul ould`);

/** Surname prefixes written with a full stop ("Grace St. Clair", "Ste. Marie"): kept before a name word. */
export const SURNAME_PREFIXES = list(`st ste`);

/** Articles before a title ("le habla la Sra. Beatriz Salgado", "soy el Sr. Robles"): skipped with it. */
export const ARTICLES_BEFORE_TITLE = list(`el la the`);

/**
 * Property words that are also surnames ("I'm Karen Lease", "Tom House"): blocked as names, but kept
 * written with a capital right after a known given name.
 */
export const SURNAME_NOUNS = list(`lease rent pool house tour bath`);

/** Honorifics skipped before a name ("this is Dr. Amanda Ruiz" -> "Amanda Ruiz"). */
export const TITLES = list(`
  mr mrs ms miss mx dr prof sr sra srta senor senora senorita don dona doctor doctora lic ing licenciado licenciada
  ingeniero ingeniera arq profesor profesora sgt rev capt lt
`);

/** Generational suffixes kept after a surname ("Robert Johnson Jr."). */
export const SUFFIXES = list(`jr sr ii iii iv`);

/** Lower-case particles inside a surname ("Juan Carlos de la Cruz"), kept only between name words. */
export const PARTICLES = list(`de del la las los da das do dos di du van von der den le bin ibn al`);

/**
 * Words that introduce a name, strongest first (see `NameCue`). `dateNames`: after the cue, a month
 * that is also a given name, written with a capital and ending the clause, is the name ("this is
 * April, unit 3", "habla Abril, depto 3"; not "it's May 3rd", "it's May already"). `field`: a form's
 * name field, which may hold "Surname, Given name" ("Name: Smith, John"). "my name is" introduces nothing but a
 * name; "I'm" and "soy" also introduce states ("I'm interested", "soy estudiante"); "it's" and "habla"
 * introduce too much else to guess lower-case names after them.
 */
export const INTRO_CUES: ReadonlyArray<{ pattern: RegExp; cue: 'strong' | 'weak' | 'known'; dateNames?: boolean; field?: boolean }> = [
  { pattern: /\bmy\s+name\s+is\s+/giu, cue: 'strong' },
  { pattern: /\bmy\s+name['’]?s\s+/giu, cue: 'strong' },
  { pattern: /\bname['’]s\s+/giu, cue: 'strong' },
  // "hey! name is kyle", "The name is Brandon Cole": "name is" opening a clause ("my dog's name is Max" does not).
  { pattern: /(?:^|[.!?,;]\s*|\b(?:hi|hello|hey|the)[\s,!]*)name\s+is\s+/giu, cue: 'strong' },
  // "names Valerie": "name's" typed without its apostrophe, opening a clause.
  { pattern: /(?:^|[.!?,;]\s*|\b(?:hi|hello|hey)[\s,]+)names\s+/giu, cue: 'known' },
  { pattern: /\bme\s+(?:ll|y)amo\s+/giu, cue: 'strong' },
  { pattern: /\bmi\s+nombre\s+es\s+/giu, cue: 'strong' },
  { pattern: /(?<![\p{L}])(?:name|nombre)\s*:\s*/giu, cue: 'strong', field: true },
  // A header line "From: Derek Hall", "De: Alma Ruiz".
  { pattern: /(?:^|\n)[ \t]*(?:from|de|remitente)[ \t]*:[ \t]*/giu, cue: 'known' },
  { pattern: /\bthis\s+is\s+/giu, cue: 'known', dateNames: true },
  { pattern: /\bi\s+am\s+/giu, cue: 'weak' },
  { pattern: /\bi['’]?m\s+/giu, cue: 'weak' },
  { pattern: /(?<![\p{L}])so[yi]\s+/giu, cue: 'weak' },
  { pattern: /(?<![\p{L}])les?\s+habla\s+/giu, cue: 'strong' },
  { pattern: /(?<![\p{L}])habla\s+/giu, cue: 'known', dateNames: true },
  // "le escribe Valeria Cisneros", "les saluda Graciela Ponce": the writer's own introduction.
  { pattern: /(?<![\p{L}])les?\s+(?:escribe|saluda)\s+/giu, cue: 'strong' },
  // "you can call me Teddy", "everyone calls me Bo", "me dicen Chuy": what the writer wants to be called
  // ("call me at ...", "call me back" read no name: those words are never names).
  { pattern: /\b(?:you|u|ya)\s+(?:can|may|could)\s+call\s+me\s+|\b(?:everyone|everybody|people|friends)\s+calls?\s+me\s+|(?<![\p{L}])(?:me\s+dicen|d[ií]game|d[ií]ganme)\s+/giu, cue: 'known' },
  { pattern: /\bit['’]?s\s+/giu, cue: 'known' },
  // "it's me, Anita from 6B", "it's me Trevor", "soy yo, Marisol".
  { pattern: /\bit['’]?s\s+me[,!–—-]?\s+|(?<![\p{L}])soy\s+yo[,!–—-]?\s+/giu, cue: 'known' },
  { pattern: /(?<![\p{L}])quien\s+(?:les?\s+)?escribe\s+es\s+(?:(?:el|la)\s+)?(?:se[nñ]ora?\s+|se[nñ]orita\s+)?/giu, cue: 'strong' },
  // "Aquí Marta Salinas": only at the start of a clause ("aquí no hay agua" reads no name).
  { pattern: /(?:^|[.!?,;]\s*|\bhola\s*(?:,\s*)?)aqu[ií]\s+/giu, cue: 'known', dateNames: true },
];

/** Closings after which a signature name may follow ("Thanks, Sarah" / "- David Brown"). */
export const SIGN_OFF = /(?<![\p{L}\p{N}])(?:thanks|thank\s+you|thx|regards|best|cheers|sincerely|respectfully|gracias|saludos|atentamente|atte|att|cordialmente|un\s+saludo|quedo\s+atent[oa]|quedo\s+a\s+la\s+espera|xoxo|besos|abrazos|bendiciones)(?:\s+(?:so|very)\s+much|\s+a\s+lot|\s+again|\s+in\s+advance|\s+for\s+(?:all\s+)?(?:your|the)\s+(?:help|time)|\s+de\s+antemano|\s+mil|\s+cordiales)?[\s!.,:]*(?:[-–—]\s*)?|(?<!\S)[-–—]{1,2}\s*/giu;

/** After a name: it names a qualification, not a person ("I'm Section 8 approved", "soy HUD aprobada"). */
export const QUALIFICATION_AFTER = /^\s*(?:\d+\s*)?(?:pre-?)?(?:approved|aprobad[oa]|certified|certificad[oa]|qualified|eligible|verified|bound|based)\b/iu;

/**
 * Places a visitor says they are from ("soy Carmen de Monterrey"): after a lone "de" they end the
 * name instead of joining it. Places the lexicon knows (Dallas, Chihuahua) need not be listed.
 */
export const PLACES_AFTER_DE = list(`
  monterrey guadalajara houston mexico cdmx puebla tijuana juarez sinaloa sonora jalisco oaxaca michoacan
  guerrero veracruz yucatan cancun acapulco durango zacatecas nayarit colima tabasco chiapas queretaro
  hidalgo morelos toluca celaya saltillo torreon reynosa matamoros nuevo laredo miami california
  texas florida arizona chicago nueva york colombia venezuela honduras guatemala salvador nicaragua cuba
  peru ecuador bolivia chile argentina uruguay paraguay panama espana madrid barcelona bogota medellin
  cali caracas lima quito puerto
`);

/** Words before a name that address or credit somebody else ("Hi Sarah", "speak with Maria", "de parte de Carlos Méndez", "me recomendó Luisa Rojas"). */
export const ADDRESSING_BEFORE = /(?:\b(?:hi|hello|hey|dear|with|to|for|ask|tell|have|let|hola|con|a|para|que|de\s+parte\s+de|recomend[oó]|refiri[oó]|atendi[oó]|dijo|told|(?:referred|recommended|sent)\s+by)[\s,]*)$/iu;

/** A question about someone, the name right after its opening verb ("Is Greg Holt still the manager?", "Can Nancy Wu call me?"). */
export const QUESTION_BEFORE = /(?:^|[.!?¿]\s*)(?:is|was|does|did|can|could|will|would|has|have|should)$/iu;

/** A place named after "soy de", "vivo en", "from" ("soy de Dolores Hidalgo"): an entity there is a town. */
export const PLACE_FROM_BEFORE = /(?:\b(?:soy|somos|vengo|venimos|vivo|vivimos|estoy|estamos)\s+(?:de|en)|\b(?:from|in)|\b(?:I['’]?m|we['’]?re)\s+(?:from|in|at))$/iu;

/** A relative or a neighbour named right before ("my neighbor Dave Collins", "mi hija Daniela Soto"); tested on trimmed text. */
export const RELATION_BEFORE = /\b(?:my|mi|our|nuestr[oa])\s+(?:husband|wife|son|daughter|mom|mother|dad|father|brother|sister|neighbou?r|roommate|room\s+mate|friend|boyfriend|girlfriend|partner|(?:brother|sister|mother|father|son|daughter)-in-law|caseworker|case\s+manager|social\s+worker|guarantor|sponsor|attorney|lawyer|employer|boss|supervisor|realtor|agent|fianc[eé]e?|cousin|aunt|uncle|niece|nephew|grandson|granddaughter|coworker|co-worker|landlord|manager|esposo|esposa|hij[oa]|mam[aá]|pap[aá]|herman[oa]|vecin[oa]|novi[oa]|amig[oa]|prim[oa]|t[ií][oa]|sobrin[oa]|niet[oa]|suegr[oa]|cu[nñ]ad[oa]|pareja|compa[nñ]er[oa](?:\s+de\s+(?:cuarto|piso|casa|depa|departamento|trabajo))?|roomie|gerente),?$|\b(?:the|el|la)\s+(?:(?:old|previous|former|last)\s+)?(?:tenant|resident|owner|inquilin[oa]|residente|due[nñ][oa]|propietari[oa])(?:\s+anterior)?,?$|\b(?:the|el|la|los|las)\s+(?:mother|father|mom|dad|wife|husband|son|daughter|mam[aá]|pap[aá]|madre|padre|esposa?|esposo|hij[oa]s?|herman[oa]s?|t[ií][oa]|abuel[oa]|niet[oa]|novi[oa]|amig[oa])\s+(?:of|de)(?:\s+(?:la|el|the))?(?:\s+(?:sra?|srta|mrs?|ms|se[nñ]ora?)\.?)?$/iu;

/** Staff named with their job right before ("the maintenance tech Gary Olsen", "la administradora Carmen López"); tested on trimmed text. */
export const STAFF_BEFORE = /\b(?:the|el|la|los|las|my|mi|our|nuestr[oa]|your|su)\s+(?:(?:maintenance|leasing|property|building|office|de\s+mantenimiento)\s+)?(?:t[eé]cnic[oa]|technician|tech|administrador(?:a)?|encargad[oa]|gerente|manager|agente|agent|asesor(?:a)?|plomero|plumber|electricista|electrician|handyman|super|superintendent|conserje|portero|vigilante|guardia|guard|arrendador(?:a)?|caser[oa]|realtor|leasing\s+agent|property\s+manager)\s*,?$/iu;

/** Staff named with their job right after ("Michelle Davis from leasing", "José Martínez de mantenimiento"). */
export const STAFF_AFTER = /^\s*(?:,\s*)?(?:from|at|in|of|de|del)\s+(?:the\s+|la\s+|el\s+)?(?:leasing|maintenance|office|front\s+desk|management|oficina|mantenimiento|administraci[oó]n|gerencia)\b|^\s*(?:,\s*)?(?:the|la|el|our|your|nuestr[oa])\s+(?:manager|gerente|administrador[a]?|encargad[oa]|plumber|electrician|technician|tech|handyman|super|superintendent|agent|realtor|landlord|owner|guard|plomero|t[eé]cnic[oa]|electricista|conserje|vigilante|due[nñ][oa]|arrendador[a]?)\b/iu;

/** Someone else introduced in the third person right before a name ("her name is Rosa Diaz", "ella se llama Irma Soto"). */
export const THIRD_PERSON_BEFORE = /(?:\b(?:his|her|their|su)\s+name\s+is|\bse\s+llaman?|\b(?:she|he)['’]?s|\b(?:she|he)\s+is|(?<![\p{L}])(?:ella|[eé]l)\s+es)[\s,:]*$/iu;

/** Someone else named as the one who told or sent the writer ("Laura Mendez told me to message you", "Rosa me dijo"). */
export const OTHER_ACTOR_AFTER = /^\s*(?:told|said|says|recommended|referred|gave|(?:me|nos)\s+(?:dijo|dijeron|recomend[oó]|dio|pas[oó]))(?![\p{L}])/iu;
